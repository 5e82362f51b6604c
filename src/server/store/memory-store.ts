import { copyRecord } from "./copy-record.ts";
import { MemoryTable, type MemoryTableSpec } from "./memory-table.ts";
import type {
  ClientIdRecord,
  DomainEvent,
  PayeeDestinationNonceRecord,
  PayeeDestinationRecord,
  PayerRecord,
  PaymentDetailRecord,
  PaymentIntentRecord,
  RecurringPaymentRecord,
  RequestRecord,
  SandboxClockRecord,
  SecurePaymentRecord,
  WalletAllowanceRecord,
  WalletBalanceRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "./records.ts";
import type { Store, StoreOperations } from "./store.ts";

const copy = copyRecord;
const key = (...parts: string[]) => parts.map((part) => part.toLowerCase()).join("|");
/** The index every record of a table is in: its records in insertion order. */
const all = () => "";

function spec<R>(name: string, keyOf: (record: R) => string, indexes: MemoryTableSpec<R>["indexes"] = {}) {
  return { name, key: keyOf, indexes };
}

/** Each record type, its key and the indexes its queries read (see StoreOperations). */
const tableSpecs = {
  requests: spec<RequestRecord>("requests", (r) => r.requestId, {
    paymentReference: (r) => r.paymentReference.toLowerCase(),
    account: (r) => r.accountId,
    recurringPayment: (r) => r.recurringPaymentId ?? undefined,
  }),
  paymentIntents: spec<PaymentIntentRecord>("payment_intents", (r) => r.id),
  securePayments: spec<SecurePaymentRecord>("secure_payments", (r) => r.token),
  payeeDestinations: {
    ...spec<PayeeDestinationRecord>("payee_destinations", (r) => `${r.accountId}|${r.destinationId}`, {
      activeWallet: (r) => (r.active ? key(r.accountId, r.walletAddress) : undefined),
    }),
    unique: ["activeWallet"],
  },
  payeeDestinationNonces: spec<PayeeDestinationNonceRecord>("payee_destination_nonces", (r) => r.nonce),
  recurringPayments: spec<RecurringPaymentRecord>("recurring_payments", (r) => r.id),
  payers: spec<PayerRecord>("payers", (r) => `${r.accountId}|${r.clientUserId}`),
  paymentDetails: spec<PaymentDetailRecord>("payment_details", (r) => r.id, {
    payer: (r) => `${r.accountId}|${r.clientUserId}`,
  }),
  clientIds: spec<ClientIdRecord>("client_ids", (r) => r.id, {
    all,
    account: (r) => r.accountId,
    publicValue: (r) => r.clientId,
  }),
  balances: spec<WalletBalanceRecord>("wallet_balances", (r) => key(r.accountId, r.address, r.currency), {
    wallet: (r) => key(r.accountId, r.address),
  }),
  allowances: spec<WalletAllowanceRecord>(
    "wallet_allowances",
    (r) => key(r.accountId, r.address, r.currency, r.spender),
    { wallet: (r) => key(r.accountId, r.address) },
  ),
  sandboxClocks: spec<SandboxClockRecord>("sandbox_clocks", (r) => r.accountId),
  webhookEndpoints: spec<WebhookEndpointRecord>("webhook_endpoints", (r) => r.id, {
    account: (r) => r.accountId,
  }),
  webhookDeliveries: {
    ...spec<WebhookDeliveryRecord>("webhook_deliveries", (r) => r.id, {
      all,
      account: (r) => r.accountId,
      endpoint: (r) => r.endpointId,
      event: (r) => r.eventId,
      request: (r) => r.requestId ?? undefined,
      pending: (r) => (r.state === "pending" ? "" : undefined),
      eventAndEndpoint: (r) => `${r.eventId}|${r.endpointId}`,
    }),
    unique: ["eventAndEndpoint"],
  },
} as const;

type Tables = { [K in keyof typeof tableSpecs]: MemoryTable<Parameters<(typeof tableSpecs)[K]["key"]>[0]> };

/** The index that narrows a delivery filter most, and the value to look up in it. */
function deliveryIndexFor(filter: WebhookDeliveryFilter): [string, string] {
  if (filter.eventId !== undefined) return ["event", filter.eventId];
  if (filter.requestId !== undefined) return ["request", filter.requestId];
  if (filter.endpointId !== undefined) return ["endpoint", filter.endpointId];
  if (filter.state === "pending") return ["pending", ""];
  if (filter.accountId !== undefined) return ["account", filter.accountId];
  return ["all", ""];
}

function matches(delivery: WebhookDeliveryRecord, filter: WebhookDeliveryFilter): boolean {
  return (Object.keys(filter) as (keyof WebhookDeliveryFilter)[]).every(
    (field) => filter[field] === undefined || delivery[field] === filter[field],
  );
}

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
 * The in-memory store: one indexed table per record type behind the Store interface. A
 * transaction keeps an undo log and replays it backwards when the work throws; transactions are
 * serialised by a promise chain. Events are numbered when their transaction commits.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const onRead = options.onRead ?? (() => {});
  const tables = Object.fromEntries(
    Object.entries(tableSpecs).map(([name, tableSpec]) => [
      name,
      new MemoryTable(tableSpec as MemoryTableSpec<unknown>, onRead),
    ]),
  ) as unknown as Tables;
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

  function operations(undo: Array<() => void>, appended: Omit<DomainEvent, "sequence">[]): StoreOperations {
    const put = <R>(table: MemoryTable<R>, record: R) => {
      undo.push(table.put(record));
    };
    return {
      getRequest: async (requestId) => tables.requests.get(requestId),
      findRequestByPaymentReference: async (reference) =>
        tables.requests.first("paymentReference", reference.toLowerCase()),
      putRequest: async (record) => put(tables.requests, record),
      listRequests: async (accountId, filter = {}) =>
        filter.recurringPaymentId === undefined
          ? tables.requests.find("account", accountId).items
          : tables.requests.find(
              "recurringPayment",
              filter.recurringPaymentId,
              undefined,
              (record) => record.accountId === accountId,
            ).items,
      getPaymentIntent: async (id) => tables.paymentIntents.get(id),
      putPaymentIntent: async (record) => put(tables.paymentIntents, record),
      getSecurePayment: async (token) => tables.securePayments.get(token),
      putSecurePayment: async (record) => put(tables.securePayments, record),
      getPayeeDestination: async (accountId, destinationId) =>
        tables.payeeDestinations.get(`${accountId}|${destinationId}`),
      findActivePayeeDestination: async (accountId, walletAddress) =>
        tables.payeeDestinations.first("activeWallet", key(accountId, walletAddress)),
      putPayeeDestination: async (record) => put(tables.payeeDestinations, record),
      getPayeeDestinationNonce: async (nonce) => tables.payeeDestinationNonces.get(nonce),
      putPayeeDestinationNonce: async (record) => put(tables.payeeDestinationNonces, record),
      getRecurringPayment: async (id) => tables.recurringPayments.get(id),
      putRecurringPayment: async (record) => put(tables.recurringPayments, record),
      getPayer: async (accountId, clientUserId) => tables.payers.get(`${accountId}|${clientUserId}`),
      putPayer: async (record) => put(tables.payers, record),
      getPaymentDetail: async (accountId, clientUserId, id) => {
        const found = tables.paymentDetails.get(id);
        return found && found.accountId === accountId && found.clientUserId === clientUserId
          ? found
          : undefined;
      },
      putPaymentDetail: async (record) => put(tables.paymentDetails, record),
      listPaymentDetails: async (accountId, clientUserId) =>
        tables.paymentDetails.find("payer", `${accountId}|${clientUserId}`).items,
      getClientId: async (id) => tables.clientIds.get(id),
      findClientIdByPublicValue: async (clientId) => tables.clientIds.first("publicValue", clientId),
      listClientIds: async (accountId) =>
        (accountId === undefined
          ? tables.clientIds.find("all", "")
          : tables.clientIds.find("account", accountId)
        ).items,
      putClientId: async (record) => put(tables.clientIds, record),
      getWallet: async (accountId, address) => ({
        balances: tables.balances.find("wallet", key(accountId, address)).items,
        allowances: tables.allowances.find("wallet", key(accountId, address)).items,
      }),
      putBalance: async (record) => put(tables.balances, record),
      putAllowance: async (record) => put(tables.allowances, record),
      getSandboxClock: async (accountId) => tables.sandboxClocks.get(accountId),
      putSandboxClock: async (record) => put(tables.sandboxClocks, record),
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
      getWebhookEndpoint: async (id) => tables.webhookEndpoints.get(id),
      listWebhookEndpoints: async (accountId, page) =>
        tables.webhookEndpoints.find("account", accountId, page),
      putWebhookEndpoint: async (record) => put(tables.webhookEndpoints, record),
      deleteWebhookEndpoint: async (id) => {
        const restore = tables.webhookEndpoints.delete(id);
        if (restore) undo.push(restore);
        return restore !== undefined;
      },
      getWebhookDelivery: async (id) => tables.webhookDeliveries.get(id),
      listWebhookDeliveries: async (filter, page) => {
        const [index, value] = deliveryIndexFor(filter);
        return tables.webhookDeliveries.find(index, value, page, (record) => matches(record, filter));
      },
      putWebhookDelivery: async (record) => put(tables.webhookDeliveries, record),
      trimWebhookDeliveries: async (accountId, keepLatest) => {
        const excess = tables.webhookDeliveries.count("account", accountId) - keepLatest;
        if (excess <= 0) return 0;
        const finished = tables.webhookDeliveries.oldestKeys(
          "account",
          accountId,
          excess,
          (record) => record.state !== "pending",
        );
        for (const id of finished) {
          const restore = tables.webhookDeliveries.delete(id);
          if (restore) undo.push(restore);
        }
        return finished.length;
      },
    };
  }

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
      const undo: Array<() => void> = [];
      const appended: Omit<DomainEvent, "sequence">[] = [];
      try {
        const result = await work(operations(undo, appended));
        const committed = appended.map(
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
        for (const step of undo.reverse()) step();
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

  const single =
    <A extends unknown[], R>(pick: (tx: StoreOperations) => (...args: A) => Promise<R>) =>
    (...args: A) =>
      withTransaction((tx) => pick(tx)(...args));

  // A read outside a transaction reads at once when no transaction is queued or running (it
  // cannot see half-written state then), and otherwise waits its turn like a transaction.
  const reader = operations([], []);
  const isRead = (name: string) => /^(get|find|list)/.test(name);
  const singleRead =
    <A extends unknown[], R>(pick: (tx: StoreOperations) => (...args: A) => Promise<R>) =>
    (...args: A) =>
      inFlight === 0 ? pick(reader)(...args) : withTransaction((tx) => pick(tx)(...args));

  const standalone = Object.fromEntries(
    Object.keys(reader).map((name) => {
      const pick = (tx: StoreOperations) =>
        tx[name as keyof StoreOperations] as (...args: unknown[]) => Promise<unknown>;
      return [name, isRead(name) ? singleRead(pick) : single(pick)];
    }),
  ) as unknown as StoreOperations;

  return {
    ...standalone,
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
          .find("pending", "", undefined, (record) => {
            if (claim.id !== undefined && record.id !== claim.id) return false;
            return dueTime(record) <= now && (record.lease === null || Date.parse(record.lease.until) <= now);
          })
          .items.sort((a, b) => dueTime(a) - dueTime(b))
          .slice(0, claim.limit);
        const lease = { owner: claim.owner, until: claim.leaseUntil.toISOString() };
        for (const record of due) {
          record.lease = lease;
          tables.webhookDeliveries.put(record);
        }
        return due;
      }),
    updateWebhookDelivery: (id, change) =>
      withTransaction(async (tx) => {
        const current = await tx.getWebhookDelivery(id);
        const changed = current && change(current);
        if (changed) await tx.putWebhookDelivery(changed);
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
