import type {
  ClientIdRecord,
  DomainEvent,
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
  WebhookDeliveryClaim,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "./records.ts";

/**
 * The operations the server needs from its storage. Every method is async and returns copies,
 * so that a SQL implementation can stand behind the same interface; records are values, never
 * live references into the store. Lists come in insertion order; no method reads more records
 * than it answers (plus those its filter skips), whatever the store holds.
 */
export interface StoreOperations {
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

  /**
   * Appends to the outbox. The event gets its sequence when the surrounding transaction commits,
   * in commit order, so a reader never sees a later sequence before an earlier one; listeners
   * hear of it then. The transaction itself does not read it back.
   */
  appendEvent(event: Omit<DomainEvent, "sequence">): Promise<void>;
  /** Committed events after `afterSequence`, oldest first: at most `limit` of them when given. */
  listEvents(afterSequence?: number, limit?: number): Promise<DomainEvent[]>;
  /** The last outbox sequence a consumer (such as `webhooks`) has handled; 0 when none. */
  getOutboxCursor(consumer: string): Promise<number>;
  setOutboxCursor(consumer: string, sequence: number): Promise<void>;
  /**
   * Drops the oldest events beyond the newest `keepLatest`, never one that a consumer with a
   * cursor has yet to handle. Returns how many it dropped.
   */
  trimEvents(keepLatest: number): Promise<number>;

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
  /**
   * Drops an account's oldest delivered or dead deliveries beyond its newest `keepLatest`
   * deliveries; pending ones stay. Returns how many it dropped.
   */
  trimWebhookDeliveries(accountId: string, keepLatest: number): Promise<number>;
}

export interface Store extends StoreOperations {
  /**
   * Whether other processes share it (a database): the webhook worker then polls it for the
   * work they leave, such as a delivery whose worker died mid-attempt.
   */
  readonly shared: boolean;
  /**
   * Leases the due deliveries of `claim` to its owner (oldest due first) and answers them with
   * their lease: two workers never hold one delivery at once. It commits at once.
   */
  claimWebhookDeliveries(claim: WebhookDeliveryClaim): Promise<WebhookDeliveryRecord[]>;
  /**
   * Changes one delivery atomically: `change` gets it as stored now and answers its new state
   * (or undefined to leave it); a concurrent change of it waits or runs again. Answers the new
   * state, or undefined when there is no such delivery or nothing changed.
   */
  updateWebhookDelivery(
    id: string,
    change: (current: WebhookDeliveryRecord) => WebhookDeliveryRecord | undefined,
  ): Promise<WebhookDeliveryRecord | undefined>;
  /**
   * Hands the committed events past `consumer`'s cursor (at most `limit`, oldest first) to
   * `handle`, in one transaction that also moves the cursor past them. Runs for one consumer
   * never overlap, in this process or another, so each event is handled once. Answers what
   * `handle` answered and how many events it got (none: `handle` is not called).
   */
  consumeEvents<T>(
    consumer: string,
    limit: number,
    handle: (events: DomainEvent[], tx: StoreOperations) => Promise<T>,
  ): Promise<{ handled: number; result: T | undefined }>;

  /**
   * Runs `work` atomically: either every change it makes is kept, or, when it throws, none is.
   * Transactions behave as if they ran one at a time: inside `work`, use `tx` only, never the
   * store itself. A store may run `work` again after a conflict with a concurrent transaction,
   * so `work` must have no effect outside `tx`.
   */
  withTransaction<T>(work: (tx: StoreOperations) => Promise<T>): Promise<T>;
  /** Calls `listener` with the events of each committed transaction, in order. Returns an unsubscribe. */
  onEventsCommitted(listener: (events: DomainEvent[]) => void): () => void;
  /** Releases what the store holds (connections); the in-memory store has nothing to release. */
  close(): Promise<void>;
}
