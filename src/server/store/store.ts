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

/**
 * The operations the server needs from its storage. Every method is async and returns copies,
 * so that a SQL implementation can stand behind the same interface; records are values, never
 * live references into the store.
 */
export interface StoreOperations {
  getRequest(requestId: string): Promise<RequestRecord | undefined>;
  findRequestByPaymentReference(paymentReference: string): Promise<RequestRecord | undefined>;
  /** Inserts or replaces a request. */
  putRequest(record: RequestRecord): Promise<void>;
  /** Every request of one account, oldest first. */
  listRequests(accountId: string): Promise<RequestRecord[]>;

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
  listClientIds(): Promise<ClientIdRecord[]>;
  putClientId(record: ClientIdRecord): Promise<void>;

  /** Every balance and allowance of one address (compared case-insensitively). */
  getWallet(
    address: string,
  ): Promise<{ balances: WalletBalanceRecord[]; allowances: WalletAllowanceRecord[] }>;
  putBalance(record: WalletBalanceRecord): Promise<void>;
  putAllowance(record: WalletAllowanceRecord): Promise<void>;

  /** Appends to the outbox; listeners hear of it once the surrounding transaction commits. */
  appendEvent(event: Omit<DomainEvent, "sequence">): Promise<DomainEvent>;
  listEvents(afterSequence?: number): Promise<DomainEvent[]>;
  /** The last outbox sequence a consumer (such as `webhooks`) has handled; 0 when none. */
  getOutboxCursor(consumer: string): Promise<number>;
  setOutboxCursor(consumer: string, sequence: number): Promise<void>;

  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | undefined>;
  /** Endpoints of one account, or of all accounts, oldest first. */
  listWebhookEndpoints(accountId?: string): Promise<WebhookEndpointRecord[]>;
  putWebhookEndpoint(record: WebhookEndpointRecord): Promise<void>;
  /** Removes an endpoint; its deliveries stay in the log. True when it existed. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;

  getWebhookDelivery(id: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Deliveries matching every given field of the filter, oldest first. */
  listWebhookDeliveries(filter?: WebhookDeliveryFilter): Promise<WebhookDeliveryRecord[]>;
  putWebhookDelivery(record: WebhookDeliveryRecord): Promise<void>;
}

export interface Store extends StoreOperations {
  /**
   * Runs `work` atomically: either every change it makes is kept, or, when it throws, none is.
   * Transactions run one at a time: inside `work`, use `tx` only, never the store itself.
   */
  withTransaction<T>(work: (tx: StoreOperations) => Promise<T>): Promise<T>;
  /** Calls `listener` with the events of each committed transaction, in order. Returns an unsubscribe. */
  onEventsCommitted(listener: (events: DomainEvent[]) => void): () => void;
}
