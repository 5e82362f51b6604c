import { randomUUID } from "node:crypto";
import { copyRecord } from "./copy-record.ts";
import { MemoryTable } from "./memory-table.ts";
import type { DomainEvent, WebhookDeliveryRecord } from "./records.ts";
import type { Store, StoreOperations, StoreOwnOperations } from "./store.ts";
import type { RecordOf } from "./table-declaration.ts";
import { mapStoreTables, type RecordTables, type StoreTableDeclarations } from "./tables.ts";

const copy = copyRecord;

/** When a delivery may next be attempted, in epoch milliseconds; at once when it names no time. */
const dueTime = (record: WebhookDeliveryRecord) =>
  record.dueAt === null ? Number.NEGATIVE_INFINITY : Date.parse(record.dueAt);

export interface MemoryStoreOptions {
  /** Hears of every record a read looks at, by table: tests count them to prove no read walks a whole table. */
  onRead?: (table: string, records: number) => void;
}

/** A copy of everything the memory store holds; two equal snapshots mean nothing changed. */
export interface MemoryStoreSnapshot {
  tables: Record<string, unknown[]>;
  events: DomainEvent[];
  outboxCursors: Record<string, number>;
}

export interface MemoryStore extends Store {
  snapshot(): MemoryStoreSnapshot;
}

/**
 * The in-memory store: an indexed table for each declared one (tables.ts) behind the Store
 * interface. A transaction keeps an undo log and replays it backwards when the work throws;
 * transactions are serialised by a promise chain. Events are numbered when their transaction commits.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const onRead = options.onRead ?? (() => {});
  const tables = mapStoreTables((declaration) => new MemoryTable(declaration, onRead)) as {
    [N in keyof RecordTables]: MemoryTable<RecordOf<StoreTableDeclarations[N]>>;
  };
  /**
   * Committed events in sequence order, without gaps, from `events[trimmed]` on: the ones before
   * it are trimmed, and dropped from the array once they are half of it (a trim of a few events
   * does not move the thousands kept).
   */
  let events: DomainEvent[] = [];
  let trimmed = 0;
  let lastSequence = 0;
  const outboxCursors = new Map<string, number>();
  const listeners = new Set<(events: DomainEvent[]) => void>();
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * The running transaction's undo log and appended events. Transactions run one at a time, so
   * every transaction is handed the same operations, which write to these.
   */
  let undo: Array<() => void> = [];
  let appended: Omit<DomainEvent, "sequence">[] = [];
  const keepUndo = (step: () => void) => {
    undo.push(step);
  };

  /** The outbox and the trimming of the delivery log: what this store writes its own way. */
  const own: StoreOwnOperations = {
    appendEvent: async (event) => {
      appended.push(copy(event));
    },
    listEvents: async (afterSequence = 0, limit = Number.POSITIVE_INFINITY) => {
      const first = events[trimmed]?.sequence ?? lastSequence + 1;
      const start = trimmed + Math.max(0, afterSequence + 1 - first);
      const found = events.slice(start, start + limit);
      onRead("events", found.length);
      return found.map(copy);
    },
    getOutboxCursor: async (consumer) => outboxCursors.get(consumer) ?? 0,
    setOutboxCursor: async (consumer, sequence) => {
      const had = outboxCursors.get(consumer);
      undo.push(() =>
        had === undefined ? outboxCursors.delete(consumer) : outboxCursors.set(consumer, had),
      );
      outboxCursors.set(consumer, sequence);
    },
    trimEvents: async (keepLatest) => {
      const handled = outboxCursors.size > 0 ? Math.min(...outboxCursors.values()) : lastSequence;
      const first = events[trimmed]?.sequence ?? lastSequence + 1;
      const count = Math.max(0, Math.min(events.length - trimmed - keepLatest, handled - first + 1));
      trimmed += count;
      undo.push(() => {
        trimmed -= count;
      });
      return count;
    },
    trimWebhookDeliveries: async (accountId, keepLatest) => {
      const excess = tables.webhookDeliveries.count("account", accountId) - keepLatest;
      if (excess <= 0) return 0;
      const removed = tables.webhookDeliveries.removeOldest(
        "account",
        accountId,
        excess,
        (record) => record.state !== "pending",
      );
      undo.push(...removed);
      return removed.length;
    },
  };

  const operations: StoreOperations = {
    ...(mapStoreTables((_, name) => tables[name].storeTable(keepUndo)) as unknown as RecordTables),
    ...own,
  };

  function notify(committed: DomainEvent[]) {
    for (const listener of listeners) {
      try {
        listener(committed.map(copy));
      } catch {
        // A listener's failure must not undo a committed transaction; listeners handle their own errors.
      }
    }
  }

  /** Transactions queued or running: while there are none, nothing is half-written. */
  let inFlight = 0;

  async function withTransaction<T>(work: (tx: StoreOperations) => Promise<T>): Promise<T> {
    inFlight++;
    const run = queue.then(async () => {
      const steps: Array<() => void> = [];
      const added: Omit<DomainEvent, "sequence">[] = [];
      undo = steps;
      appended = added;
      try {
        const result = await work(operations);
        const committed = added.map(
          (event): DomainEvent => ({
            sequence: ++lastSequence,
            type: event.type,
            occurredAt: event.occurredAt,
            data: event.data,
          }),
        );
        events.push(...committed);
        if (trimmed > 0 && trimmed * 2 >= events.length) {
          events = events.slice(trimmed);
          trimmed = 0;
        }
        if (committed.length > 0) notify(committed);
        return result;
      } catch (error) {
        for (const step of steps.reverse()) step();
        throw error;
      }
    });
    queue = run.catch(() => undefined);
    run.then(
      () => inFlight--,
      () => inFlight--,
    );
    return run;
  }

  // A read outside a transaction reads at once when no transaction is queued or running (it
  // cannot see half-written state then), and otherwise waits its turn like a transaction.
  type Operation = (...args: unknown[]) => Promise<unknown>;
  const single =
    (pick: (tx: StoreOperations) => Operation, read: boolean): Operation =>
    (...args) =>
      read && inFlight === 0 ? pick(operations)(...args) : withTransaction((tx) => pick(tx)(...args));
  const standaloneTables = mapStoreTables((_, name) => {
    const methods = (tx: StoreOperations) => tx[name] as unknown as Record<string, Operation>;
    return Object.fromEntries(
      Object.keys(methods(operations)).map((method) => [
        method,
        single((tx) => methods(tx)[method] as Operation, method !== "put" && method !== "delete"),
      ]),
    );
  }) as unknown as RecordTables;
  const standaloneOwn = Object.fromEntries(
    Object.keys(own).map((name) => [
      name,
      single((tx) => tx[name as keyof StoreOwnOperations] as Operation, /^(get|list)/.test(name)),
    ]),
  ) as unknown as StoreOwnOperations;
  return {
    ...standaloneTables,
    ...standaloneOwn,
    snapshot: () => ({
      tables: Object.fromEntries(Object.entries(tables).map(([name, table]) => [name, table.snapshot()])),
      events: copy(events.slice(trimmed)),
      outboxCursors: Object.fromEntries(outboxCursors),
    }),
    shared: false,
    withTransaction,
    onEventsCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    claimWebhookDeliveries: (claim) =>
      withTransaction(async () => {
        const now = claim.now.getTime();
        const due = tables.webhookDeliveries
          .find("pending", {}, undefined, (record) => {
            if (claim.id !== undefined && record.id !== claim.id) return false;
            if (claim.skipEndpoints?.includes(record.endpointId)) return false;
            if (claim.skipDeliveries?.includes(record.id)) return false;
            return dueTime(record) <= now && (record.lease === null || Date.parse(record.lease.until) <= now);
          })
          .items.sort((a, b) => dueTime(a) - dueTime(b))
          .slice(0, claim.limit);
        for (const record of due) {
          record.lease = { owner: claim.owner, until: claim.leaseUntil.toISOString(), token: randomUUID() };
          tables.webhookDeliveries.put(record);
        }
        return due;
      }),
    updateWebhookDelivery: (id, change) =>
      withTransaction(async (tx) => {
        const current = await tx.webhookDeliveries.get(id);
        const changed = current && change(current);
        if (changed) await tx.webhookDeliveries.put(changed);
        return changed;
      }),
    consumeEvents: (consumer, limit, handle) =>
      withTransaction(async (tx) => {
        const pending = await tx.listEvents(await tx.getOutboxCursor(consumer), limit);
        const last = pending.at(-1);
        if (!last) return { handled: 0, result: undefined };
        await tx.setOutboxCursor(consumer, last.sequence);
        return { handled: pending.length, result: await handle(pending, tx) };
      }),
    close: async () => {},
  };
}
