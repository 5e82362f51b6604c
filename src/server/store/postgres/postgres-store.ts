import { randomUUID } from "node:crypto";
import pg from "pg";
import { defaultDatabaseTimeouts } from "../database-timeouts.ts";
import type { DomainEvent, WebhookDeliveryRecord } from "../records.ts";
import type { Store, StoreOperations, StoreOwnOperations } from "../store.ts";
import { mapStoreTables, type RecordTables } from "../tables.ts";
import { migrateDatabase } from "./migrate.ts";
import { type Queryable, SqlSession, sqlStoreTable } from "./sql-session.ts";
import { sqlTables } from "./sql-tables.ts";
import { createTransactionRunner, type DatabaseTimeouts, poolTimeouts } from "./transaction-runner.ts";

/** The advisory lock that orders event numbering: held from numbering until the commit. */
const eventNumberingLock = 0x70617972;

function operations(db: Queryable, appended: Omit<DomainEvent, "sequence">[]): StoreOperations {
  const sql = new SqlSession(db);
  const tables = mapStoreTables((_, name) => sqlStoreTable(sql, sqlTables[name])) as unknown as RecordTables;
  const own: StoreOwnOperations = {
    appendEvent: async (event) => {
      appended.push(structuredClone(event));
    },
    listEvents: async (afterSequence = 0, limit) => {
      const rows = await sql.query<{ sequence: string; record: Omit<DomainEvent, "sequence"> }>(
        `SELECT sequence, record FROM events WHERE sequence > $1 ORDER BY sequence${limit === undefined ? "" : " LIMIT $2"}`,
        limit === undefined ? [afterSequence] : [afterSequence, limit],
      );
      return rows.map((row) => ({ ...row.record, sequence: Number(row.sequence) }));
    },
    getOutboxCursor: async (consumer) => {
      const [row] = await sql.query<{ sequence: string }>(
        "SELECT sequence FROM outbox_cursors WHERE consumer = $1",
        [consumer],
      );
      return row ? Number(row.sequence) : 0;
    },
    setOutboxCursor: async (consumer, sequence) => {
      await sql.query(
        `INSERT INTO outbox_cursors (consumer, sequence) VALUES ($1, $2)
         ON CONFLICT (consumer) DO UPDATE SET sequence = EXCLUDED.sequence`,
        [consumer, sequence],
      );
    },
    trimEvents: async (keepLatest) => {
      const result = await db.query(
        `DELETE FROM events WHERE sequence <= LEAST(
           (SELECT min(sequence) FROM outbox_cursors),
           (SELECT coalesce(max(sequence), 0) FROM events) - $1)`,
        [keepLatest],
      );
      return result.rowCount ?? 0;
    },
    trimWebhookDeliveries: async (accountId, keepLatest) => {
      const result = await db.query(
        `DELETE FROM webhook_deliveries WHERE account_id = $1 AND state <> 'pending' AND position <= (
           SELECT position FROM webhook_deliveries WHERE account_id = $1
           ORDER BY position DESC OFFSET $2 LIMIT 1)`,
        [accountId, keepLatest],
      );
      return result.rowCount ?? 0;
    },
  };
  return { ...tables, ...own };
}

export interface PostgresStoreOptions {
  /** A `postgres://` URL. */
  connectionString: string;
  /** Connections this process opens at most (10 by default). */
  maxConnections?: number;
  /** How long to wait for the database; the configuration's defaults (`databaseConnectTimeoutMs`, ...) by default. */
  timeouts?: { [Field in keyof DatabaseTimeouts]?: number | undefined };
}

/** The configuration's defaults under what `given` sets. */
function resolveTimeouts(given: PostgresStoreOptions["timeouts"] = {}): DatabaseTimeouts {
  return {
    connectTimeoutMs: given.connectTimeoutMs ?? defaultDatabaseTimeouts.connectTimeoutMs,
    statementTimeoutMs: given.statementTimeoutMs ?? defaultDatabaseTimeouts.statementTimeoutMs,
    lockTimeoutMs: given.lockTimeoutMs ?? defaultDatabaseTimeouts.lockTimeoutMs,
  };
}

/**
 * The PostgreSQL store: one table per record type (see migrations/, applied here with
 * node-pg-migrate), shared by every server instance on the database. Each transaction is one
 * SERIALIZABLE transaction, run again when PostgreSQL finds it conflicts with a concurrent one,
 * so that the invariants hold as with the in-memory store's one-at-a-time transactions. While the
 * database is unavailable, or a transaction keeps conflicting, calls fail after bounded retries
 * with a StoreTransientError (transaction-runner.ts), and succeed again once the database answers.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  await migrateDatabase(options.connectionString);
  const timeouts = resolveTimeouts(options.timeouts);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    ...poolTimeouts(timeouts),
  });
  // An idle connection that breaks (the database restarted) is dropped; the next query opens another.
  pool.on("error", () => {});
  const transactions = createTransactionRunner(pool, timeouts);
  const listeners = new Set<(events: DomainEvent[]) => void>();

  function notify(committed: DomainEvent[]) {
    for (const listener of listeners) {
      try {
        listener(structuredClone(committed));
      } catch {
        // A listener's failure must not undo a committed transaction; listeners handle their own errors.
      }
    }
  }

  /** Numbers and inserts the transaction's events last, under a lock held until the commit. */
  async function insertEvents(
    client: pg.PoolClient,
    appended: Omit<DomainEvent, "sequence">[],
  ): Promise<DomainEvent[]> {
    if (appended.length === 0) return [];
    await client.query("SELECT pg_advisory_xact_lock($1)", [eventNumberingLock]);
    const committed: DomainEvent[] = [];
    for (const event of appended) {
      const { rows } = await client.query<{ sequence: string }>(
        "INSERT INTO events (sequence, record) VALUES (nextval('events_sequence'), $1::jsonb) RETURNING sequence",
        [JSON.stringify(event)],
      );
      committed.push({ ...event, sequence: Number(rows[0]?.sequence) });
    }
    return committed;
  }

  async function runTransaction<T>(
    isolation: "SERIALIZABLE" | "READ COMMITTED",
    work: (tx: StoreOperations, client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    const { result, committed } = await transactions.run(isolation, async (client) => {
      const appended: Omit<DomainEvent, "sequence">[] = [];
      const result = await work(operations(client, appended), client);
      return { result, committed: await insertEvents(client, appended) };
    });
    if (committed.length > 0) notify(committed);
    return result;
  }

  // Calls outside a transaction: each statement commits on its own, and runs again while the database is unavailable.
  const standalone = operations({ query: transactions.query }, []);
  return {
    ...standalone,
    appendEvent: (event) => runTransaction("SERIALIZABLE", (tx) => tx.appendEvent(event)),
    shared: true,
    withTransaction: (work) => runTransaction("SERIALIZABLE", (tx) => work(tx)),
    onEventsCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    claimWebhookDeliveries: (claim) =>
      runTransaction("READ COMMITTED", async (tx, client) => {
        const values: unknown[] = [claim.now.toISOString(), claim.limit];
        const only = (condition: (parameter: string) => string, value: unknown) => {
          values.push(value);
          return `AND ${condition(`$${values.length}`)}`;
        };
        const { rows } = await client.query<{ record: WebhookDeliveryRecord }>(
          `SELECT record FROM webhook_deliveries
           WHERE state = 'pending' AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
           ${claim.id === undefined ? "" : only((id) => `id = ${id}`, claim.id)}
           ${claim.skipEndpoints?.length ? only((ids) => `NOT (endpoint_id = ANY(${ids}))`, claim.skipEndpoints) : ""}
           ${claim.skipDeliveries?.length ? only((ids) => `NOT (id = ANY(${ids}))`, claim.skipDeliveries) : ""}
           ORDER BY due_at, position LIMIT $2 FOR UPDATE SKIP LOCKED`,
          values,
        );
        const until = claim.leaseUntil.toISOString();
        const claimed = rows.map((row) => ({
          ...row.record,
          lease: { owner: claim.owner, until, token: randomUUID() },
        }));
        for (const record of claimed) await tx.webhookDeliveries.put(record);
        return claimed;
      }),
    // The worker's bookkeeping locks what it changes instead: it runs often, and a SERIALIZABLE
    // run would keep conflicting with the domain transactions around it.
    updateWebhookDelivery: (id, change) =>
      runTransaction("READ COMMITTED", async (tx, client) => {
        const { rows } = await client.query<{ record: WebhookDeliveryRecord }>(
          "SELECT record FROM webhook_deliveries WHERE id = $1 FOR UPDATE",
          [id],
        );
        const current = rows[0]?.record;
        const changed = current && change(current);
        if (changed) await tx.webhookDeliveries.put(changed);
        return changed;
      }),
    consumeEvents: (consumer, limit, handle) =>
      runTransaction("READ COMMITTED", async (tx, client) => {
        // The cursor's row lock makes runs for one consumer take turns across processes.
        await client.query(
          "INSERT INTO outbox_cursors (consumer, sequence) VALUES ($1, 0) ON CONFLICT (consumer) DO NOTHING",
          [consumer],
        );
        const { rows } = await client.query<{ sequence: string }>(
          "SELECT sequence FROM outbox_cursors WHERE consumer = $1 FOR UPDATE",
          [consumer],
        );
        const pending = await tx.listEvents(Number(rows[0]?.sequence ?? 0), limit);
        const last = pending.at(-1);
        if (!last) return { handled: 0, result: undefined };
        await tx.setOutboxCursor(consumer, last.sequence);
        return { handled: pending.length, result: await handle(pending, tx) };
      }),
    close: () => pool.end(),
  };
}
