import type {
  ClientIdRecord,
  Page,
  PageRequest,
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
import type { StoreOperations } from "./store.ts";
import type { RecordTables } from "./tables.ts";

/** What a store's transaction has beside its tables: the outbox, and trimming the delivery log. */
export type OutboxOperations = Omit<StoreOperations, keyof RecordTables | keyof NamedOperations>;

/** A transaction's operations: its tables, the named operations over them, and the rest. */
export function withTables(tables: RecordTables, rest: OutboxOperations): StoreOperations {
  return { ...tables, ...namedOperations(tables), ...rest };
}

/** The named lookups the domain code calls, each one a read or write of one declared table. */
export interface NamedOperations {
  getRequest(requestId: string): Promise<RequestRecord | undefined>;
  findRequestByPaymentReference(paymentReference: string): Promise<RequestRecord | undefined>;
  /** Inserts or replaces a request. */
  putRequest(record: RequestRecord): Promise<void>;
  /**
   * The requests of one account, oldest first: every one, or with `recurringPaymentId` only the
   * periods that recurring payment's executions created.
   */
  listRequests(accountId: string, filter?: { recurringPaymentId?: string }): Promise<RequestRecord[]>;

  getPaymentIntent(id: string): Promise<PaymentIntentRecord | undefined>;
  /** Inserts or replaces a payment intent. */
  putPaymentIntent(record: PaymentIntentRecord): Promise<void>;

  getSecurePayment(token: string): Promise<SecurePaymentRecord | undefined>;
  putSecurePayment(record: SecurePaymentRecord): Promise<void>;

  getPayeeDestination(accountId: string, destinationId: string): Promise<PayeeDestinationRecord | undefined>;
  /** The active destination of a wallet (compared case-insensitively) in one account, if any. */
  findActivePayeeDestination(
    accountId: string,
    walletAddress: string,
  ): Promise<PayeeDestinationRecord | undefined>;
  /** Inserts or replaces a destination. */
  putPayeeDestination(record: PayeeDestinationRecord): Promise<void>;
  getPayeeDestinationNonce(nonce: string): Promise<PayeeDestinationNonceRecord | undefined>;
  putPayeeDestinationNonce(record: PayeeDestinationNonceRecord): Promise<void>;

  getRecurringPayment(id: string): Promise<RecurringPaymentRecord | undefined>;
  putRecurringPayment(record: RecurringPaymentRecord): Promise<void>;

  getPayer(accountId: string, clientUserId: string): Promise<PayerRecord | undefined>;
  putPayer(record: PayerRecord): Promise<void>;

  getPaymentDetail(
    accountId: string,
    clientUserId: string,
    id: string,
  ): Promise<PaymentDetailRecord | undefined>;
  putPaymentDetail(record: PaymentDetailRecord): Promise<void>;
  /** The payment details of one payer of one account, oldest first. */
  listPaymentDetails(accountId: string, clientUserId: string): Promise<PaymentDetailRecord[]>;

  getClientId(id: string): Promise<ClientIdRecord | undefined>;
  findClientIdByPublicValue(clientId: string): Promise<ClientIdRecord | undefined>;
  /** The client IDs of one account, oldest first; of every account when none is named (CORS, the payment page). */
  listClientIds(accountId?: string): Promise<ClientIdRecord[]>;
  putClientId(record: ClientIdRecord): Promise<void>;

  /** Every balance and allowance of one address (compared case-insensitively) in one account's wallet book. */
  getWallet(
    accountId: string,
    address: string,
  ): Promise<{ balances: WalletBalanceRecord[]; allowances: WalletAllowanceRecord[] }>;
  putBalance(record: WalletBalanceRecord): Promise<void>;
  putAllowance(record: WalletAllowanceRecord): Promise<void>;

  /** Where an account's sandbox clock stands; undefined until the account first moves it. */
  getSandboxClock(accountId: string): Promise<SandboxClockRecord | undefined>;
  putSandboxClock(record: SandboxClockRecord): Promise<void>;

  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | undefined>;
  /** Endpoints of one account, oldest first: all of them, or one page. */
  listWebhookEndpoints(accountId: string, page?: PageRequest): Promise<Page<WebhookEndpointRecord>>;
  putWebhookEndpoint(record: WebhookEndpointRecord): Promise<void>;
  /** Removes an endpoint; its deliveries stay in the log. True when it existed. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;

  getWebhookDelivery(id: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Deliveries matching every given field of the filter, oldest first: all of them, or one page. */
  listWebhookDeliveries(
    filter: WebhookDeliveryFilter,
    page?: PageRequest,
  ): Promise<Page<WebhookDeliveryRecord>>;
  /** Inserts or replaces a delivery; a second delivery of one event to one endpoint is refused. */
  putWebhookDelivery(record: WebhookDeliveryRecord): Promise<void>;
}

/** The lookup that narrows a delivery filter most, and the value to look up in it. */
function deliveryLookupFor(filter: WebhookDeliveryFilter) {
  if (filter.eventId !== undefined) return ["event", filter.eventId] as const;
  if (filter.requestId !== undefined) return ["request", filter.requestId] as const;
  if (filter.endpointId !== undefined) return ["endpoint", filter.endpointId] as const;
  if (filter.state === "pending") return ["pending", {}] as const;
  if (filter.accountId !== undefined) return ["account", filter.accountId] as const;
  return ["all", {}] as const;
}

/** The named operations over a store's tables. */
export function namedOperations(t: RecordTables): NamedOperations {
  return {
    getRequest: (requestId) => t.requests.get(requestId),
    findRequestByPaymentReference: (reference) => t.requests.first("paymentReference", reference),
    putRequest: (record) => t.requests.put(record),
    listRequests: async (accountId, { recurringPaymentId } = {}) =>
      (recurringPaymentId === undefined
        ? await t.requests.find("account", accountId)
        : await t.requests.find("recurringPayment", recurringPaymentId, undefined, { accountId })
      ).items,
    getPaymentIntent: (id) => t.paymentIntents.get(id),
    putPaymentIntent: (record) => t.paymentIntents.put(record),
    getSecurePayment: (token) => t.securePayments.get(token),
    putSecurePayment: (record) => t.securePayments.put(record),
    getPayeeDestination: (accountId, destinationId) => t.payeeDestinations.get({ accountId, destinationId }),
    findActivePayeeDestination: (accountId, walletAddress) =>
      t.payeeDestinations.first("activeWallet", { accountId, walletAddress }),
    putPayeeDestination: (record) => t.payeeDestinations.put(record),
    getPayeeDestinationNonce: (nonce) => t.payeeDestinationNonces.get(nonce),
    putPayeeDestinationNonce: (record) => t.payeeDestinationNonces.put(record),
    getRecurringPayment: (id) => t.recurringPayments.get(id),
    putRecurringPayment: (record) => t.recurringPayments.put(record),
    getPayer: (accountId, clientUserId) => t.payers.get({ accountId, clientUserId }),
    putPayer: (record) => t.payers.put(record),
    getPaymentDetail: async (accountId, clientUserId, id) => {
      const found = await t.paymentDetails.get(id);
      return found && found.accountId === accountId && found.clientUserId === clientUserId
        ? found
        : undefined;
    },
    putPaymentDetail: (record) => t.paymentDetails.put(record),
    listPaymentDetails: async (accountId, clientUserId) =>
      (await t.paymentDetails.find("payer", { accountId, clientUserId })).items,
    getClientId: (id) => t.clientIds.get(id),
    findClientIdByPublicValue: (clientId) => t.clientIds.first("publicValue", clientId),
    listClientIds: async (accountId) =>
      (accountId === undefined
        ? await t.clientIds.find("all", {})
        : await t.clientIds.find("account", accountId)
      ).items,
    putClientId: (record) => t.clientIds.put(record),
    getWallet: async (accountId, address) => ({
      balances: (await t.balances.find("wallet", { accountId, address })).items,
      allowances: (await t.allowances.find("wallet", { accountId, address })).items,
    }),
    putBalance: (record) => t.balances.put(record),
    putAllowance: (record) => t.allowances.put(record),
    getSandboxClock: (accountId) => t.sandboxClocks.get(accountId),
    putSandboxClock: (record) => t.sandboxClocks.put(record),
    getWebhookEndpoint: (id) => t.webhookEndpoints.get(id),
    listWebhookEndpoints: (accountId, page) => t.webhookEndpoints.find("account", accountId, page),
    putWebhookEndpoint: (record) => t.webhookEndpoints.put(record),
    deleteWebhookEndpoint: (id) => t.webhookEndpoints.delete(id),
    getWebhookDelivery: (id) => t.webhookDeliveries.get(id),
    listWebhookDeliveries: (filter, page) => {
      const [lookup, value] = deliveryLookupFor(filter);
      return t.webhookDeliveries.find(lookup, value as never, page, filter);
    },
    putWebhookDelivery: (record) => t.webhookDeliveries.put(record),
  };
}
