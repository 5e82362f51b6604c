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
  SecurePaymentRecord,
  WalletAllowanceRecord,
  WalletBalanceRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "./records.ts";
import type { Store, StoreOperations } from "./store.ts";

interface Tables {
  requests: Map<string, RequestRecord>;
  requestsByReference: Map<string, string>;
  paymentIntents: Map<string, PaymentIntentRecord>;
  securePayments: Map<string, SecurePaymentRecord>;
  payeeDestinations: Map<string, PayeeDestinationRecord>;
  payeeDestinationNonces: Map<string, PayeeDestinationNonceRecord>;
  recurringPayments: Map<string, RecurringPaymentRecord>;
  payers: Map<string, PayerRecord>;
  paymentDetails: Map<string, PaymentDetailRecord>;
  clientIds: Map<string, ClientIdRecord>;
  balances: Map<string, WalletBalanceRecord>;
  allowances: Map<string, WalletAllowanceRecord>;
  events: DomainEvent[];
  outboxCursors: Map<string, number>;
  webhookEndpoints: Map<string, WebhookEndpointRecord>;
  webhookDeliveries: Map<string, WebhookDeliveryRecord>;
}

const copy = <T>(value: T): T => structuredClone(value);
const key = (...parts: string[]) => parts.map((part) => part.toLowerCase()).join("|");

function matches(delivery: WebhookDeliveryRecord, filter: WebhookDeliveryFilter): boolean {
  return (Object.keys(filter) as (keyof WebhookDeliveryFilter)[]).every(
    (field) => filter[field] === undefined || delivery[field] === filter[field],
  );
}

/**
 * The in-memory store: maps behind the Store interface. A transaction keeps an undo log and
 * replays it backwards when the work throws; transactions are serialised by a promise chain.
 */
export function createMemoryStore(): Store {
  const tables: Tables = {
    requests: new Map(),
    requestsByReference: new Map(),
    paymentIntents: new Map(),
    securePayments: new Map(),
    payeeDestinations: new Map(),
    payeeDestinationNonces: new Map(),
    recurringPayments: new Map(),
    payers: new Map(),
    paymentDetails: new Map(),
    clientIds: new Map(),
    balances: new Map(),
    allowances: new Map(),
    events: [],
    outboxCursors: new Map(),
    webhookEndpoints: new Map(),
    webhookDeliveries: new Map(),
  };
  const listeners = new Set<(events: DomainEvent[]) => void>();
  let queue: Promise<unknown> = Promise.resolve();

  function operations(undo: Array<() => void>, appended: DomainEvent[]): StoreOperations {
    function set<V>(map: Map<string, V>, mapKey: string, value: V) {
      const had = map.has(mapKey);
      const previous = map.get(mapKey);
      undo.push(() => (had ? map.set(mapKey, previous as V) : map.delete(mapKey)));
      map.set(mapKey, value);
    }
    function remove<V>(map: Map<string, V>, mapKey: string): boolean {
      if (!map.has(mapKey)) return false;
      const previous = map.get(mapKey) as V;
      undo.push(() => map.set(mapKey, previous));
      return map.delete(mapKey);
    }
    return {
      getRequest: async (requestId) => copy(tables.requests.get(requestId)),
      findRequestByPaymentReference: async (reference) => {
        const requestId = tables.requestsByReference.get(reference.toLowerCase());
        return requestId === undefined ? undefined : copy(tables.requests.get(requestId));
      },
      putRequest: async (record) => {
        set(tables.requests, record.requestId, copy(record));
        set(tables.requestsByReference, record.paymentReference.toLowerCase(), record.requestId);
      },
      // Maps keep insertion order, which is creation order: putRequest only replaces in place.
      listRequests: async (accountId) =>
        [...tables.requests.values()].filter((record) => record.accountId === accountId).map(copy),
      getPaymentIntent: async (id) => copy(tables.paymentIntents.get(id)),
      putPaymentIntent: async (record) => set(tables.paymentIntents, record.id, copy(record)),
      getSecurePayment: async (token) => copy(tables.securePayments.get(token)),
      putSecurePayment: async (record) => set(tables.securePayments, record.token, copy(record)),
      getPayeeDestination: async (accountId, destinationId) =>
        copy(tables.payeeDestinations.get(`${accountId}|${destinationId}`)),
      findActivePayeeDestination: async (accountId, walletAddress) =>
        copy(
          [...tables.payeeDestinations.values()].find(
            (record) =>
              record.accountId === accountId &&
              record.active &&
              record.walletAddress.toLowerCase() === walletAddress.toLowerCase(),
          ),
        ),
      putPayeeDestination: async (record) =>
        set(tables.payeeDestinations, `${record.accountId}|${record.destinationId}`, copy(record)),
      getPayeeDestinationNonce: async (nonce) => copy(tables.payeeDestinationNonces.get(nonce)),
      putPayeeDestinationNonce: async (record) =>
        set(tables.payeeDestinationNonces, record.nonce, copy(record)),
      getRecurringPayment: async (id) => copy(tables.recurringPayments.get(id)),
      putRecurringPayment: async (record) => set(tables.recurringPayments, record.id, copy(record)),
      getPayer: async (accountId, clientUserId) => copy(tables.payers.get(`${accountId}|${clientUserId}`)),
      putPayer: async (record) =>
        set(tables.payers, `${record.accountId}|${record.clientUserId}`, copy(record)),
      getPaymentDetail: async (accountId, clientUserId, id) => {
        const found = tables.paymentDetails.get(id);
        return found && found.accountId === accountId && found.clientUserId === clientUserId
          ? copy(found)
          : undefined;
      },
      putPaymentDetail: async (record) => set(tables.paymentDetails, record.id, copy(record)),
      // Insertion order is creation order: a record's id never changes once stored.
      listPaymentDetails: async (accountId, clientUserId) =>
        [...tables.paymentDetails.values()]
          .filter((found) => found.accountId === accountId && found.clientUserId === clientUserId)
          .map(copy),
      getClientId: async (id) => copy(tables.clientIds.get(id)),
      // A scan, not an index: a handful of records, and nothing to keep in step when one changes.
      findClientIdByPublicValue: async (clientId) =>
        copy([...tables.clientIds.values()].find((record) => record.clientId === clientId)),
      listClientIds: async () => [...tables.clientIds.values()].map(copy),
      putClientId: async (record) => {
        set(tables.clientIds, record.id, copy(record));
      },
      getWallet: async (address) => ({
        balances: [...tables.balances.values()]
          .filter((balance) => balance.address.toLowerCase() === address.toLowerCase())
          .map(copy),
        allowances: [...tables.allowances.values()]
          .filter((allowance) => allowance.address.toLowerCase() === address.toLowerCase())
          .map(copy),
      }),
      putBalance: async (record) => set(tables.balances, key(record.address, record.currency), copy(record)),
      putAllowance: async (record) =>
        set(tables.allowances, key(record.address, record.currency, record.spender), copy(record)),
      appendEvent: async (event) => {
        const stored: DomainEvent = { ...copy(event), sequence: tables.events.length + 1 };
        tables.events.push(stored);
        undo.push(() => tables.events.pop());
        appended.push(stored);
        return copy(stored);
      },
      listEvents: async (afterSequence = 0) =>
        tables.events.filter((e) => e.sequence > afterSequence).map(copy),
      getOutboxCursor: async (consumer) => tables.outboxCursors.get(consumer) ?? 0,
      setOutboxCursor: async (consumer, sequence) => set(tables.outboxCursors, consumer, sequence),
      getWebhookEndpoint: async (id) => copy(tables.webhookEndpoints.get(id)),
      listWebhookEndpoints: async (accountId) =>
        [...tables.webhookEndpoints.values()]
          .filter((endpoint) => accountId === undefined || endpoint.accountId === accountId)
          .map(copy),
      putWebhookEndpoint: async (record) => set(tables.webhookEndpoints, record.id, copy(record)),
      deleteWebhookEndpoint: async (id) => remove(tables.webhookEndpoints, id),
      getWebhookDelivery: async (id) => copy(tables.webhookDeliveries.get(id)),
      listWebhookDeliveries: async (filter = {}) =>
        [...tables.webhookDeliveries.values()].filter((delivery) => matches(delivery, filter)).map(copy),
      putWebhookDelivery: async (record) => set(tables.webhookDeliveries, record.id, copy(record)),
    };
  }

  function notify(events: DomainEvent[]) {
    for (const listener of listeners) {
      try {
        listener(events.map(copy));
      } catch {
        // A listener's failure must not undo a committed transaction; listeners handle their own errors.
      }
    }
  }

  async function withTransaction<T>(work: (tx: StoreOperations) => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      const undo: Array<() => void> = [];
      const appended: DomainEvent[] = [];
      try {
        const result = await work(operations(undo, appended));
        if (appended.length > 0) notify(appended);
        return result;
      } catch (error) {
        for (const step of undo.reverse()) step();
        throw error;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  }

  const single =
    <A extends unknown[], R>(pick: (tx: StoreOperations) => (...args: A) => Promise<R>) =>
    (...args: A) =>
      withTransaction((tx) => pick(tx)(...args));

  return {
    withTransaction,
    onEventsCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getRequest: single((tx) => tx.getRequest),
    findRequestByPaymentReference: single((tx) => tx.findRequestByPaymentReference),
    putRequest: single((tx) => tx.putRequest),
    listRequests: single((tx) => tx.listRequests),
    getPaymentIntent: single((tx) => tx.getPaymentIntent),
    putPaymentIntent: single((tx) => tx.putPaymentIntent),
    getSecurePayment: single((tx) => tx.getSecurePayment),
    putSecurePayment: single((tx) => tx.putSecurePayment),
    getPayeeDestination: single((tx) => tx.getPayeeDestination),
    findActivePayeeDestination: single((tx) => tx.findActivePayeeDestination),
    putPayeeDestination: single((tx) => tx.putPayeeDestination),
    getPayeeDestinationNonce: single((tx) => tx.getPayeeDestinationNonce),
    putPayeeDestinationNonce: single((tx) => tx.putPayeeDestinationNonce),
    getRecurringPayment: single((tx) => tx.getRecurringPayment),
    putRecurringPayment: single((tx) => tx.putRecurringPayment),
    getPayer: single((tx) => tx.getPayer),
    putPayer: single((tx) => tx.putPayer),
    getPaymentDetail: single((tx) => tx.getPaymentDetail),
    putPaymentDetail: single((tx) => tx.putPaymentDetail),
    listPaymentDetails: single((tx) => tx.listPaymentDetails),
    getClientId: single((tx) => tx.getClientId),
    findClientIdByPublicValue: single((tx) => tx.findClientIdByPublicValue),
    listClientIds: single((tx) => tx.listClientIds),
    putClientId: single((tx) => tx.putClientId),
    getWallet: single((tx) => tx.getWallet),
    putBalance: single((tx) => tx.putBalance),
    putAllowance: single((tx) => tx.putAllowance),
    appendEvent: single((tx) => tx.appendEvent),
    listEvents: single((tx) => tx.listEvents),
    getOutboxCursor: single((tx) => tx.getOutboxCursor),
    setOutboxCursor: single((tx) => tx.setOutboxCursor),
    getWebhookEndpoint: single((tx) => tx.getWebhookEndpoint),
    listWebhookEndpoints: single((tx) => tx.listWebhookEndpoints),
    putWebhookEndpoint: single((tx) => tx.putWebhookEndpoint),
    deleteWebhookEndpoint: single((tx) => tx.deleteWebhookEndpoint),
    getWebhookDelivery: single((tx) => tx.getWebhookDelivery),
    listWebhookDeliveries: single((tx) => tx.listWebhookDeliveries),
    putWebhookDelivery: single((tx) => tx.putWebhookDelivery),
  };
}
