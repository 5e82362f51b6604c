import type {
  ChainCursorRecord,
  ChainLogRecord,
  ClientIdLinkIntentRecord,
  ClientIdRecord,
  CommercePaymentRecord,
  JourneyEventRecord,
  JourneyRecord,
  OrchestratorBrandingRecord,
  OrchestratorClientIdLinkRecord,
  OrchestratorFeeConfigRecord,
  OrchestratorRecord,
  PayeeDestinationNonceRecord,
  PayeeDestinationRecord,
  PayerRecord,
  PaymentDetailRecord,
  PaymentIntentRecord,
  RecurringPaymentRecord,
  RequestRecord,
  SandboxClockRecord,
  SecurePaymentRecord,
  SessionRecord,
  UserRecord,
  WalletAllowanceRecord,
  WalletBalanceRecord,
  WalletChallengeRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "./records.ts";
import { type AnyTable, declareTable, type StoreTables } from "./table-declaration.ts";

/**
 * Every record table, declared once: its key and the lookups its reads use. The in-memory store
 * indexes each lookup; the PostgreSQL store keeps each field a key or lookup reads in a column
 * named after it (`accountId` in `account_id`) beside the record, with the indexes that
 * migrations/ create; test/server/store/postgres-schema.test.ts checks that the two agree.
 */
export const storeTables = {
  requests: declareTable<RequestRecord>()({
    sqlName: "requests",
    key: ["requestId"],
    lookups: {
      paymentReference: { fields: ["paymentReference"] },
      account: { fields: ["accountId"], listed: true },
      /** The periods a recurring payment's executions created. */
      recurringPayment: { fields: ["recurringPaymentId"], listed: true },
      /** An account's first requests of recurring invoices, whose later periods a clock move creates. */
      recurringInvoices: { fields: ["recurringInvoiceOf"], listed: true },
    },
    caseInsensitive: ["paymentReference"],
  }),
  /** Cross-chain payment intents issued by GET /v2/request/{requestId}/pay. */
  paymentIntents: declareTable<PaymentIntentRecord>()({
    sqlName: "payment_intents",
    key: ["id"],
    lookups: {},
  }),
  securePayments: declareTable<SecurePaymentRecord>()({
    sqlName: "secure_payments",
    key: ["token"],
    lookups: {},
  }),
  payeeDestinations: declareTable<PayeeDestinationRecord>()({
    sqlName: "payee_destinations",
    key: ["accountId", "destinationId"],
    lookups: {
      /** A wallet's one active destination in an account. */
      activeWallet: { fields: ["accountId", "walletAddress"], only: { active: true }, unique: true },
    },
    caseInsensitive: ["walletAddress"],
  }),
  /** Payee destination signing sessions. */
  payeeDestinationNonces: declareTable<PayeeDestinationNonceRecord>()({
    sqlName: "payee_destination_nonces",
    key: ["nonce"],
    lookups: {},
  }),
  recurringPayments: declareTable<RecurringPaymentRecord>()({
    sqlName: "recurring_payments",
    key: ["id"],
    lookups: {},
  }),
  payers: declareTable<PayerRecord>()({ sqlName: "payers", key: ["accountId", "clientUserId"], lookups: {} }),
  paymentDetails: declareTable<PaymentDetailRecord>()({
    sqlName: "payment_details",
    key: ["id"],
    lookups: { payer: { fields: ["accountId", "clientUserId"], listed: true } },
  }),
  clientIds: declareTable<ClientIdRecord>()({
    sqlName: "client_ids",
    key: ["id"],
    lookups: {
      /** Every account's (CORS, the payment page). */
      all: { fields: [], listed: true },
      account: { fields: ["accountId"], listed: true },
      /** By the public value a browser sends. */
      publicValue: { fields: ["clientId"] },
    },
  }),
  /** Wallet books: one per account. */
  balances: declareTable<WalletBalanceRecord>()({
    sqlName: "wallet_balances",
    key: ["accountId", "address", "currency"],
    lookups: { wallet: { fields: ["accountId", "address"], listed: true } },
    caseInsensitive: ["address", "currency"],
  }),
  allowances: declareTable<WalletAllowanceRecord>()({
    sqlName: "wallet_allowances",
    key: ["accountId", "address", "currency", "spender"],
    lookups: { wallet: { fields: ["accountId", "address"], listed: true } },
    caseInsensitive: ["address", "currency", "spender"],
  }),
  sandboxClocks: declareTable<SandboxClockRecord>()({
    sqlName: "sandbox_clocks",
    key: ["accountId"],
    lookups: {},
  }),
  /** Commerce payments (preview), by the id of the request each was created with. */
  commercePayments: declareTable<CommercePaymentRecord>()({
    sqlName: "commerce_payments",
    key: ["requestId"],
    lookups: {},
  }),
  /** Payment journeys, each of one account. */
  journeys: declareTable<JourneyRecord>()({ sqlName: "journeys", key: ["id"], lookups: {} }),
  /** The reported steps of journeys. */
  journeyEvents: declareTable<JourneyEventRecord>()({
    sqlName: "journey_events",
    key: ["id"],
    lookups: {
      /** A journey's steps, in the order they were reported. */
      journey: { fields: ["journeyId"], listed: true },
      /** The step of one of an account's journeys that has a transaction reference. */
      txReference: { fields: ["accountId", "txReference"] },
    },
  }),
  webhookEndpoints: declareTable<WebhookEndpointRecord>()({
    sqlName: "webhook_endpoints",
    key: ["id"],
    lookups: {
      /** The account's own endpoints: every account event goes to them. */
      account: { fields: ["accountId"], only: { scope: "account" }, listed: true },
      /** An orchestrator's webhooks. */
      orchestrator: { fields: ["orchestratorId"], listed: true },
    },
  }),
  orchestrators: declareTable<OrchestratorRecord>()({
    sqlName: "orchestrators",
    key: ["id"],
    lookups: {
      /** How a presented key finds its orchestrator. */
      keyHash: { fields: ["keyHash"], unique: true },
      account: { fields: ["accountId"], listed: true },
    },
  }),
  orchestratorClientIdLinks: declareTable<OrchestratorClientIdLinkRecord>()({
    sqlName: "orchestrator_client_id_links",
    key: ["id"],
    lookups: {
      orchestrator: { fields: ["orchestratorId"], listed: true },
      /** One link per orchestrator and client ID, active or revoked. */
      orchestratorAndClientId: { fields: ["orchestratorId", "clientIdId"], unique: true },
      /** The active links of a client ID. */
      activeClientId: { fields: ["clientIdId"], only: { status: "active" }, listed: true },
    },
  }),
  /** Link intents: the Auth API's intent operations read them by token, to complete them. */
  clientIdLinkIntents: declareTable<ClientIdLinkIntentRecord>()({
    sqlName: "client_id_link_intents",
    key: ["id"],
    lookups: {
      accessToken: { fields: ["accessToken"], unique: true },
      orchestrator: { fields: ["orchestratorId"], listed: true },
    },
  }),
  orchestratorFeeConfigs: declareTable<OrchestratorFeeConfigRecord>()({
    sqlName: "orchestrator_fee_configs",
    key: ["id"],
    lookups: { orchestrator: { fields: ["orchestratorId"], listed: true } },
  }),
  orchestratorBrandings: declareTable<OrchestratorBrandingRecord>()({
    sqlName: "orchestrator_brandings",
    key: ["id"],
    lookups: { parent: { fields: ["orchestratorId", "parent"], unique: true } },
  }),
  /** The delivery log, and the webhook worker's queue (its claims are each store's own). */
  webhookDeliveries: declareTable<WebhookDeliveryRecord>()({
    sqlName: "webhook_deliveries",
    key: ["id"],
    lookups: {
      all: { fields: [], listed: true },
      account: { fields: ["accountId"], listed: true },
      endpoint: { fields: ["endpointId"], listed: true },
      event: { fields: ["eventId"], listed: true },
      request: { fields: ["requestId"], listed: true },
      pending: { fields: [], only: { state: "pending" }, listed: true },
      /** One delivery of an event to an endpoint. */
      eventAndEndpoint: { fields: ["eventId", "endpointId"], unique: true },
    },
  }),
  /** Auth API users; each has its own sandbox account. */
  users: declareTable<UserRecord>()({
    sqlName: "users",
    key: ["id"],
    lookups: { login: { fields: ["login"], unique: true } },
  }),
  /** Auth API sessions, by the SHA-256 of their token. */
  sessions: declareTable<SessionRecord>()({
    sqlName: "sessions",
    key: ["tokenHash"],
    lookups: {},
  }),
  /** Wallet sign-in challenges, each used at most once. */
  walletChallenges: declareTable<WalletChallengeRecord>()({
    sqlName: "wallet_challenges",
    key: ["id"],
    lookups: {},
  }),
  /** Payment detection on a local chain: how far each chain is read, and the logs handled. */
  chainCursors: declareTable<ChainCursorRecord>()({
    sqlName: "chain_cursors",
    key: ["chainId"],
    lookups: {},
  }),
  chainLogs: declareTable<ChainLogRecord>()({
    sqlName: "chain_logs",
    key: ["logId"],
    lookups: {},
  }),
};

export type StoreTableDeclarations = typeof storeTables;
export type StoreTableName = keyof StoreTableDeclarations;

/** Every record table of a store, as `tx.requests.get(id)` reads it. */
export type RecordTables = StoreTables<StoreTableDeclarations>;

/** One value per declared table, built from its declaration: how each store makes its tables. */
export function mapStoreTables<T>(build: (declaration: AnyTable, name: StoreTableName) => T): {
  [N in StoreTableName]: T;
} {
  return Object.fromEntries(
    Object.entries(storeTables).map(([name, declaration]) => [
      name,
      build(declaration, name as StoreTableName),
    ]),
  ) as { [N in StoreTableName]: T };
}
