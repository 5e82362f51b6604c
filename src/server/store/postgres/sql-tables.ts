import type { WebhookDeliveryRecord } from "../records.ts";
import type { AnyTable, DeclaredTable } from "../table-declaration.ts";
import { type TableFields, tableFields } from "../table-fields.ts";
import { mapStoreTables, type StoreTableName } from "../tables.ts";

export type ColumnValue = string | number | boolean | null;

/** The column that keeps a record field: `accountId` in `account_id`. */
export const columnName = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * How a declared table is kept in PostgreSQL (see migrations/): the record as `jsonb` in `record`,
 * its insertion order in `position`, and each field its key and lookups read in a column of its own.
 */
export interface SqlTable<R> {
  name: string;
  /** The primary key's columns. */
  key: readonly string[];
  fields: TableFields<R>;
  /** The values of every column beside `record` and `position`, read from the record. */
  columns(record: R): Record<string, ColumnValue>;
}

/**
 * Columns beside the declared ones that only this store reads: the claim of due deliveries orders
 * them by due time and skips those leased (postgres-store.ts).
 */
const claimColumns: { [N in StoreTableName]?: (record: never) => Record<string, ColumnValue> } = {
  webhookDeliveries: (record: WebhookDeliveryRecord) => ({
    // No due time: at once.
    due_at: record.dueAt ?? "-infinity",
    lease_until: record.lease?.until ?? null,
  }),
};

function sqlTable<R>(declaration: DeclaredTable<R>, extra?: (record: never) => Record<string, ColumnValue>) {
  const fields = tableFields(declaration);
  const columns = fields.columnFields.map((field) => [field, columnName(field)] as const);
  return {
    name: declaration.sqlName,
    key: declaration.key.map(columnName),
    fields,
    columns(record: R) {
      const values: Record<string, ColumnValue> = {};
      for (const [field, column] of columns) {
        const value = (record as Record<string, unknown>)[field];
        values[column] = value === undefined ? null : (fields.normalise(field, value) as ColumnValue);
      }
      return extra ? Object.assign(values, extra(record as never)) : values;
    },
  } satisfies SqlTable<R>;
}

/** Each declared table as this store keeps it. */
export const sqlTables = mapStoreTables((declaration: AnyTable, name) =>
  sqlTable(declaration, claimColumns[name]),
);
