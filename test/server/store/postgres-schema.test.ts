import pg from "pg";
import { beforeAll, expect, it } from "vitest";
import { columnName, type SqlTable, sqlTables } from "../../../src/server/store/postgres/sql-tables.ts";
import { describeWithPostgres, sharedPostgres, type TestPostgres } from "../../support/postgres.ts";

/** Tables that hold no declared records: the outbox, kept by the store itself, and node-pg-migrate's. */
const undeclaredTables = new Set(["events", "outbox_cursors", "pgmigrations"]);

interface Index {
  name: string;
  table: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
  /** The partial index's condition, as PostgreSQL prints it; null for a whole-table index. */
  predicate: string | null;
}

interface Schema {
  tables: Set<string>;
  columns: Map<string, Set<string>>;
  indexes: Index[];
}

async function readSchema(client: pg.Client): Promise<Schema> {
  const tables = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const columns = await client.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
  );
  const indexes = await client.query<Index>(
    `SELECT index.relname AS name, owner.relname AS table, ix.indisunique AS unique, ix.indisprimary AS primary,
       pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
       array(SELECT attribute.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS key(number, place)
             JOIN pg_attribute attribute ON attribute.attrelid = ix.indrelid AND attribute.attnum = key.number
             ORDER BY key.place) AS columns
     FROM pg_index ix
     JOIN pg_class index ON index.oid = ix.indexrelid
     JOIN pg_class owner ON owner.oid = ix.indrelid
     JOIN pg_namespace namespace ON namespace.oid = owner.relnamespace
     WHERE namespace.nspname = 'public'`,
  );
  const byTable = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns.rows) {
    byTable.set(table_name, (byTable.get(table_name) ?? new Set()).add(column_name));
  }
  return {
    tables: new Set(tables.rows.map((row) => row.table_name)),
    columns: byTable,
    indexes: indexes.rows,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * Whether an index serves a lookup: it starts with the lookup's columns (in any order), or, for a
 * lookup of every record, with `position`; it holds the records the lookup's `only` lets in (a
 * partial index on that condition), or every record whose lookup columns are not null; and it is
 * unique on exactly those columns where the lookup is.
 */
function serves(
  index: Index,
  lookup: { columns: string[]; only: [string, unknown][]; unique: boolean },
): boolean {
  const leading = lookup.columns.length > 0 || lookup.only.length > 0 ? lookup.columns : ["position"];
  if (!sameSet(index.columns.slice(0, leading.length), leading)) return false;
  if (lookup.unique && !(index.unique && index.columns.length === lookup.columns.length)) return false;
  if (lookup.only.length > 0) {
    const predicate = index.predicate ?? "";
    return lookup.only.every(
      ([column, value]) =>
        new RegExp(`\\b${column}\\b`).test(predicate) &&
        (typeof value !== "string" || predicate.includes(`'${value}'`)),
    );
  }
  if (index.predicate === null) return true;
  const notNull = /^\((\w+) IS NOT NULL\)$/.exec(index.predicate);
  return notNull !== null && lookup.columns.includes(notNull[1] as string);
}

/** How a migrated schema differs from the table declarations, one line per difference. */
function disagreements(schema: Schema, tables: Record<string, SqlTable<unknown>>): string[] {
  const found: string[] = [];
  const declared = new Set(Object.values(tables).map((table) => table.name));
  for (const table of schema.tables) {
    if (!declared.has(table) && !undeclaredTables.has(table)) found.push(`${table}: migrated, not declared`);
  }
  for (const table of Object.values(tables)) {
    const { name, fields } = table;
    if (!schema.tables.has(name)) {
      found.push(`${name}: declared, not migrated`);
      continue;
    }
    const columns = schema.columns.get(name) ?? new Set();
    for (const column of ["position", "record", ...fields.columnFields.map(columnName)]) {
      if (!columns.has(column)) found.push(`${name}: no column ${column}`);
    }
    const indexes = schema.indexes.filter((index) => index.table === name);
    const primary = indexes.find((index) => index.primary);
    if (!primary || primary.columns.join() !== table.key.join()) {
      found.push(
        `${name}: primary key (${primary?.columns.join(", ") ?? ""}), declared (${table.key.join(", ")})`,
      );
    }
    for (const [lookupName, lookup] of Object.entries(fields.declaration.lookups)) {
      const wanted = {
        columns: lookup.fields.map(columnName),
        only: Object.entries(lookup.only ?? {}).map(
          ([field, value]) => [columnName(field), value] as [string, unknown],
        ),
        unique: lookup.unique === true,
      };
      if (!indexes.some((index) => serves(index, wanted))) {
        found.push(`${name}: no ${wanted.unique ? "unique " : ""}index serves the lookup ${lookupName}`);
      }
    }
  }
  return found;
}

let server: TestPostgres | undefined;

async function migratedSchema(change?: string): Promise<Schema> {
  if (!server) throw new Error("PostgreSQL did not start");
  const client = new pg.Client({ connectionString: await server.createMigratedDatabase() });
  await client.connect();
  try {
    if (change) await client.query(change);
    return await readSchema(client);
  } finally {
    await client.end();
  }
}

describeWithPostgres("the migrated PostgreSQL schema", () => {
  beforeAll(async () => {
    server = await sharedPostgres();
  });

  it("keeps every declared table as declared: its key, a column and an index for each lookup, and no table undeclared", async () => {
    expect(disagreements(await migratedSchema(), sqlTables)).toEqual([]);
  });

  it("is found to disagree when a table, key, column or index is missing, or a table is not declared", async () => {
    const schema = await migratedSchema(`
      DROP INDEX requests_account;
      DROP INDEX payee_destinations_active_wallet;
      CREATE INDEX payee_destinations_active_wallet ON payee_destinations (account_id, wallet_address) WHERE active;
      DROP INDEX webhook_deliveries_pending;
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (due_at, position) WHERE state = 'dead';
      ALTER TABLE payers DROP CONSTRAINT payers_pkey;
      ALTER TABLE client_ids DROP COLUMN client_id;
      DROP TABLE sandbox_clocks;
      CREATE TABLE strays (id text PRIMARY KEY, record jsonb NOT NULL);
    `);
    expect(disagreements(schema, sqlTables).sort()).toEqual(
      [
        "strays: migrated, not declared",
        "sandbox_clocks: declared, not migrated",
        "requests: no index serves the lookup account",
        "payee_destinations: no unique index serves the lookup activeWallet",
        "webhook_deliveries: no index serves the lookup pending",
        "payers: primary key (), declared (account_id, client_user_id)",
        "client_ids: no column client_id",
        "client_ids: no index serves the lookup publicValue",
      ].sort(),
    );
  });
});
