import type { QueryResult, QueryResultRow } from "pg";
import type { Page, PageRequest } from "../records.ts";
import type { DeclaredTable, StoreTable } from "../table-declaration.ts";
import { type ColumnValue, columnName, type SqlTable } from "./sql-tables.ts";

/** A pool (each statement commits on its own) or the client of an open transaction. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** Columns and the value each must equal; a null matches NULL. */
export type Where = Record<string, ColumnValue>;

/** `a = $1 AND b = $2 ...`, numbering from `first`; a null matches NULL. */
function conditions(where: Where, first: number): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const parts = Object.entries(where).map(([column, value]) => {
    if (value === null) return `${column} IS NULL`;
    values.push(value);
    return `${column} = $${first + values.length - 1}`;
  });
  return { sql: parts.length > 0 ? parts.join(" AND ") : "TRUE", values };
}

/**
 * The generic statements every record table answers: get by key, insert or replace, delete, find
 * by indexed columns in insertion order, a page at a time. Table and column names come from
 * the table declarations (sql-tables.ts), never from input; every value is a parameter.
 */
export class SqlSession {
  readonly db: Queryable;

  constructor(db: Queryable) {
    this.db = db;
  }

  async query<T extends QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, values)).rows;
  }

  async get<R>(table: SqlTable<R>, key: Where): Promise<R | undefined> {
    const where = conditions(key, 1);
    const [row] = await this.query<{ record: R }>(
      `SELECT record FROM ${table.name} WHERE ${where.sql}`,
      where.values,
    );
    return row?.record;
  }

  async put<R>(table: SqlTable<R>, record: R): Promise<void> {
    const columns = table.columns(record);
    const names = Object.keys(columns);
    const updates = [...names.filter((name) => !table.key.includes(name)), "record"]
      .map((name) => `${name} = EXCLUDED.${name}`)
      .join(", ");
    await this.db.query(
      `INSERT INTO ${table.name} (${[...names, "record"].join(", ")})
       VALUES (${names.map((_, index) => `$${index + 1}`).join(", ")}, $${names.length + 1}::jsonb)
       ON CONFLICT (${table.key.join(", ")}) DO UPDATE SET ${updates}`,
      [...Object.values(columns), JSON.stringify(record)],
    );
  }

  async delete<R>(table: SqlTable<R>, key: Where): Promise<boolean> {
    const where = conditions(key, 1);
    const result = await this.db.query(`DELETE FROM ${table.name} WHERE ${where.sql}`, where.values);
    return (result.rowCount ?? 0) > 0;
  }

  async first<R>(table: SqlTable<R>, where: Where): Promise<R | undefined> {
    return (await this.find(table, where, { limit: 1 })).items[0];
  }

  /** Records matching `where`, oldest first: all, or one page (one row more is read to know if another follows). */
  async find<R>(table: SqlTable<R>, where: Where, page?: PageRequest): Promise<Page<R>> {
    const filter = conditions(where, 1);
    const values = [...filter.values];
    let sql = `SELECT position, record FROM ${table.name} WHERE ${filter.sql}`;
    if (page?.after !== undefined) {
      values.push(page.after);
      sql += ` AND position > $${values.length}`;
    }
    sql += " ORDER BY position";
    if (page) {
      values.push(page.limit + 1);
      sql += ` LIMIT $${values.length}`;
    }
    const rows = await this.query<{ position: string; record: R }>(sql, values);
    const more = page !== undefined && rows.length > page.limit;
    const kept = more ? rows.slice(0, page.limit) : rows;
    return {
      items: kept.map((row) => row.record),
      next: more ? Number(kept.at(-1)?.position) : null,
    };
  }
}

/** `column = value` for each of `fields`, the values named as a key or lookup value names them. */
function matching<R>(table: SqlTable<R>, fields: readonly string[], value: unknown): Where {
  const values = table.fields.valuesOf(fields, value);
  return Object.fromEntries(fields.map((field, index) => [columnName(field), values[index] as string]));
}

/** The conditions of a lookup under a value, of its `only`, and of a filter. */
function lookupWhere<R>(table: SqlTable<R>, lookup: string, value: unknown, filter?: object): Where {
  const declared = table.fields.declaration.lookups[lookup];
  if (!declared) throw new Error(`${table.name} has no lookup ${lookup}`);
  const where = matching(table, declared.fields, value);
  for (const [field, only] of Object.entries(declared.only ?? {})) {
    where[columnName(field)] = table.fields.normalise(field, only) as ColumnValue;
  }
  for (const [field, wanted] of table.fields.filterEntries(filter)) {
    where[columnName(field)] = wanted as ColumnValue;
  }
  return where;
}

/** A declared table over a session (StoreTable): every statement built from the declaration. */
export function sqlStoreTable<R>(sql: SqlSession, table: SqlTable<R>): StoreTable<DeclaredTable<R>> {
  return {
    get: async (key) => sql.get(table, matching(table, table.fields.declaration.key, key)),
    put: async (record) => sql.put(table, record),
    delete: async (key) => sql.delete(table, matching(table, table.fields.declaration.key, key)),
    first: async (lookup, value) => sql.first(table, lookupWhere(table, lookup, value)),
    find: async (lookup, value, page, filter) =>
      sql.find(table, lookupWhere(table, lookup, value, filter), page),
  };
}
