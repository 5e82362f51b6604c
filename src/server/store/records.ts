import type { components } from "../../../generated/schema.d.ts";
import type { WebhookEventName } from "../../wire/webhook-event.ts";

type Schemas = components["schemas"];

/** The webhook events the service sends; in the outbox, their `data` is a WebhookEventData. */
export type { WebhookEventName };

/**
 * What the store keeps. Plain JSON-friendly values only (amounts in base units as decimal strings,
 * instants as ISO 8601 strings), so that a SQL store can hold them in columns as they are.
 */

// Status values are the spec's: a status the spec lacks cannot be stored.
export type RequestStatus = Schemas["SandboxRequestStatus"];

export interface RequestPaymentRecord {
  /** Identifies the payment in searches; assigned when it is recorded. */
  id: string;
  outcome: Schemas["SandboxPaymentRecord"]["outcome"];
  /** Base units of the payment currency; "0" for a failed attempt. */
  amount: string;
  txHash: `0x${string}`;
  /** Why a failed attempt failed (`insufficient_funds`), or the step of a processing record; null otherwise. */
  subStatus: string | null;
  recordedAt: string;
  /**
   * The wallet that paid, when known (a payment intent or a sandbox record names it); null
   * otherwise. Payment webhooks report it as `payerAddress`.
   */
  payer: `0x${string}` | null;
  /** The account that signed the payment, when known (webhooks' `payerEoaAddress`). */
  payerEoaAddress?: `0x${string}` | null;
  /** Where the payer paid from when it is not the request's network (a cross-chain payment); else null. */
  sourceNetwork: string | null;
  /** Where a refund went. */
  refundedTo?: `0x${string}` | null;
}

/** How a recurring invoice repeats, as given at creation. */
export interface RequestRecurrenceRecord {
  startDate: string;
  frequency: Schemas["RecurrenceFrequency"];
}

/** Receipt details of a request's customer, as given at creation. */
export type CustomerInfoRecord = Schemas["CustomerInfo"];

export interface RequestRecord {
  requestId: string;
  accountId: string;
  network: string;
  payee: `0x${string}`;
  /** The amount as given at creation, in `invoiceCurrency`. */
  invoiceAmount: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  /** What the payer owes, in base units of `paymentCurrency`. */
  expectedAmount: string;
  salt: string;
  paymentReference: `0x${string}`;
  status: RequestStatus;
  /** The sum of the recorded payments, in base units. */
  amountPaid: string;
  payments: RequestPaymentRecord[];
  securePaymentToken: string | null;
  /** The public client ID the request was created with; payment webhooks report it. */
  clientId?: string | null;
  /**
   * The Origin a client ID created the request from, as checked; null for a backend client ID
   * or another credential. Absent on requests recorded before it was kept: read as null.
   */
  origin?: string | null;
  createdAt: string;
  updatedAt: string;
  // Set by POST /v2/request and POST /v2/payouts; absent on requests created otherwise.
  payer?: `0x${string}` | null;
  recurrence?: RequestRecurrenceRecord | null;
  isRecurrenceStopped?: boolean;
  /**
   * How many later periods of this recurring request the sandbox has created: the next one is
   * number this plus one. Kept on the first request so that each period is created once.
   */
  recurrencePeriodsIssued?: number;
  /** The account, on the first request of a recurring invoice (created with `recurrence`); else absent or null. */
  recurringInvoiceOf?: string | null;
  isCryptoToFiatAvailable?: boolean;
  customerInfo?: CustomerInfoRecord | null;
  reference?: string | null;
  originalRequestId?: string | null;
  originalRequestPaymentReference?: string | null;
  /** The recurring payment whose period this request pays; absent or null otherwise. */
  recurringPaymentId?: string | null;
  /**
   * `outgoing` when the account pays the request (a payout, a payout link, a recurring payout's
   * period); absent or `incoming` when the account is paid through it.
   */
  flow?: "incoming" | "outgoing";
}

/** A payment journey: a tracking id that processors report the steps of one payment under. */
export interface JourneyRecord {
  id: string;
  accountId: string;
  /** The caller's request the journey follows; null for a journey of no request. */
  requestId: string | null;
  createdAt: string;
}

/** One reported step of a journey, kept as the processor sent it. */
export interface JourneyEventRecord {
  id: string;
  accountId: string;
  journeyId: string;
  /** The account that reported the step. */
  processorId: string;
  status: string;
  amount: string;
  currency: string | null;
  /** Null when the step has none; a later report may name the journey by it. */
  txReference: string | null;
  processedAt: string;
  /** Any JSON value; absent when none was sent. */
  rawPayload?: unknown;
  nextProcessorId: string | null;
  /** When the step was reported: orders steps processed at the same instant. */
  reportedAt: string;
}

/** What happened to a commerce payment, oldest first. */
export interface CommercePaymentEventRecord {
  type: "AUTHORIZED" | "CAPTURED" | "VOIDED";
  timestamp: string;
  transactionHash: `0x${string}`;
  /** Base units moved. */
  amount: string;
}

/**
 * A commerce payment (preview): an authorization held in escrow for the request of the same id,
 * captured (in parts) or voided later. Amounts are base units; expiries Unix seconds.
 */
export interface CommercePaymentRecord {
  requestId: string;
  accountId: string;
  merchantId: string;
  network: string;
  paymentCurrency: string;
  token: `0x${string}`;
  payer: `0x${string}`;
  merchant: `0x${string}`;
  operator: `0x${string}`;
  paymentReference: `0x${string}`;
  status: "PENDING" | "AUTHORIZED" | "PAID" | "VOIDED";
  amount: string;
  maxAmount: string;
  capturedAmount: string;
  voidedAmount: string;
  preApprovalExpiry: string;
  authorizationExpiry: string;
  refundExpiry: string;
  voidReason: string | null;
  events: CommercePaymentEventRecord[];
  createdAt: string;
  updatedAt: string;
}

export type SecurePaymentStatus = Schemas["SecurePaymentStatus"];

export type SecurePaymentKind = "incoming" | "payout" | "multicall";

export interface SecurePaymentRecord {
  token: string;
  accountId: string;
  requestIds: string[];
  network: string;
  /** The stored status; a `pending` one past `expiresAt` reads as expired (see effectiveStatus). */
  status: SecurePaymentStatus;
  reference: string | null;
  redirectUrl: string | null;
  redirectLabel: string | null;
  /** The integrator's own identifier of the payer, kept for them; never shown to the payer. */
  payerIdentifier: string | null;
  /**
   * `incoming`: the account gets paid; `payout`: the account pays a recipient; `multicall`: a
   * link referring to payout links (`multicall`), whose requests are theirs.
   */
  kind: SecurePaymentKind;
  /** A multicall link's payout links, in order, and the execution kind chosen at creation. */
  multicall?: { childTokens: string[]; requestedExecutionKind: string | null };
  /** A payout's recipient identifier and creating wallet, kept for the integrator. */
  payout?: { recipientIdentifier: string | null; creatorWalletAddress: string | null };
  /** The submitted payment the payer's page reported (POST .../intent); absent until one is. */
  intent?: SecurePaymentIntentRecord;
  /**
   * A multicall link's intents (POST .../multicall-intent): which batch transaction pays each
   * payout; absent until one is reported.
   */
  multicallIntent?: MulticallPayoutIntentRecord;
  /**
   * When `secure_payment.access_rejected` was last sent for each refused wallet (lower case): a
   * repeat within 10 minutes is suppressed. Absent until a wallet is refused.
   */
  accessRejectionsSentAt?: Record<string, string>;
  createdAt: string;
  expiresAt: string;
  updatedAt: string;
}

/** The batch a multicall link's payer is about to submit, and the transaction paying each payout. */
export interface MulticallPayoutIntentRecord {
  chain: string;
  smartAccountAddress: string | null;
  payerEoaAddress: string | null;
  /** One per payout reported, by `childPosition`, in ascending order. */
  children: MulticallPayoutChildIntentRecord[];
}

/** The transaction of a multicall batch that pays one payout of the link, and its route. */
export interface MulticallPayoutChildIntentRecord {
  childPosition: number;
  transactionIndex: number;
  routeTool: string | null;
  sourceToken: string | null;
  sourceAmount: string | null;
  routeKind: string | null;
  bridgeTool: string | null;
  recordedAt: string;
  updatedAt: string;
}

/** A reported payment of a single secure payment: the link is in progress until it is recorded. */
export interface SecurePaymentIntentRecord {
  id: string;
  chain: string;
  token: string;
  txHash: string | null;
  safeTxHash: string | null;
  /** Unix seconds after which a Safe transaction can no longer execute; null for none. */
  safePaymentDeadline: number | null;
  payerAddress: string | null;
  recordedAt: string;
  updatedAt: string;
}

/** A payee destination of one account: a wallet paid on one chain in one token. */
export interface PayeeDestinationRecord {
  accountId: string;
  /** The canonical destination id (checksummed addresses, the service's checksum): the key. */
  destinationId: string;
  walletAddress: `0x${string}`;
  chainId: number;
  network: string;
  tokenAddress: `0x${string}`;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
  /** Who may pay it, set through the Auth API; absent or null when never set. */
  accessPolicy?: Schemas["PayeeDestinationAccessPolicy"] | null;
  /** A change of its wallet waiting for co-signers, asked through the Auth API. */
  pendingWalletChange?: Schemas["PayeeDestinationWalletChange"] | null;
}

/** A payee destination signing session: what its nonce lets the wallet sign for, once. */
export interface PayeeDestinationNonceRecord {
  nonce: string;
  accountId: string;
  action: Schemas["PayeeDestinationAction"];
  destinationId: string;
  walletAddress: `0x${string}`;
  /** The EIP-712 typed data issued, as JSON text: the signature must be over exactly this. */
  typedData: string;
  expiresAt: string;
  usedAt: string | null;
}

export type RecurringPaymentStatus = Schemas["RecurringPaymentStatus"];

export interface RecurringPaymentRecord {
  id: string;
  accountId: string;
  status: RecurringPaymentStatus;
  payer: `0x${string}`;
  payee: `0x${string}`;
  currency: string;
  /** One scheduled payment, in base units of `currency`. */
  amountPerPayment: string;
  totalPayments: number;
  processedPayments: number;
  /** The contract the payer allowed to spend `currency`; cancelling resets that allowance. */
  spender: `0x${string}`;
  nextPaymentDate: string | null;
  /** The request of the period being executed, kept after a failed execution so a retry pays it. */
  currentRequestId?: string | null;
  /** The first period's request, which the later ones recur from (`request.recurring`). */
  originalRequestId?: string | null;
  /** Seconds between two payments; unknown (absent or null) for sandbox-created ones. */
  periodSeconds?: number | null;
  /**
   * The EIP-712 permit the payer must sign, as the JSON text answered by POST /v2/payouts;
   * absent or null for sandbox-created ones, which have none.
   */
  permit?: string | null;
  createdAt: string;
  updatedAt: string;
}

export type PaymentIntentStatus = "issued" | "submitted";

/** A cross-chain payment intent issued by GET /v2/request/{requestId}/pay, until it is submitted. */
export interface PaymentIntentRecord {
  id: string;
  accountId: string;
  requestId: string;
  /** The payer's wallet: the intent's source account, which must sign. */
  payer: `0x${string}`;
  /** What the intent pays the request, in base units of its payment currency. */
  amount: string;
  /** The network the payer pays from. */
  sourceNetwork: string;
  /** The source currency Permit2 moves, and its amount in base units. */
  sourceCurrency: string;
  sourceAmount: string;
  /** The EIP-712 typed data of the intent, as the JSON text answered. */
  paymentIntent: string;
  /** The EIP-2612 permit issued with it, as JSON text; null when none was. */
  approvalPermit: string | null;
  status: PaymentIntentStatus;
  createdAt: string;
  updatedAt: string;
}

export interface PayerRecord {
  accountId: string;
  clientUserId: string;
  userId: string;
  beneficiaryType: Schemas["BeneficiaryType"];
  kycStatus: Schemas["KycStatus"];
  agreementStatus: Schemas["AgreementStatus"];
  createdAt: string;
  updatedAt?: string;
}

export interface PaymentDetailRecord {
  id: string;
  accountId: string;
  clientUserId: string;
  bankName: string;
  accountName: string;
  currency: string;
  beneficiaryType: Schemas["BeneficiaryType"];
  /** The payment network the account is reached by. */
  rails: Schemas["StoredPaymentDetail"]["rails"];
  /** Where the bank-side check stands. */
  status: PaymentDetailStatus;
  createdAt: string;
  updatedAt?: string;
}

export type PaymentDetailStatus = Schemas["PaymentDetailStatus"];

export type ClientIdStatus = Schemas["ClientIdStatus"];

export interface ClientIdRecord {
  id: string;
  accountId: string;
  clientId: string;
  label: string;
  /** Origins, or `self` for the server's own public origin. */
  allowedDomains: string[];
  feePercentage: string | null;
  feeAddress: `0x${string}` | null;
  operatorWalletAddress: `0x${string}` | null;
  defaultPreApprovalExpiry: number | null;
  defaultAuthorizationExpiry: number | null;
  status: ClientIdStatus;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  /** The payee destination (canonical id) the client ID is bound to, set through the Auth API. */
  payeeDestinationId?: string | null;
}

/**
 * An orchestrator of one account. Its key is kept as a SHA-256 hash only: the key itself is
 * answered once, when the orchestrator is created.
 */
export interface OrchestratorRecord {
  id: string;
  accountId: string;
  name: string;
  supportEmail: string | null;
  status: "active";
  /** The key: its identifier, its first characters (shown), and its hash in lowercase hex. */
  keyId: string;
  keyPrefix: string;
  keyHash: string;
  createdAt: string;
  updatedAt: string;
}

export type OrchestratorLinkStatus = Schemas["OrchestratorClientIdLink"]["status"];

/** A client ID linked to an orchestrator (the client ID's record, by `clientIdId`). */
export interface OrchestratorClientIdLinkRecord {
  id: string;
  /** The orchestrator's account. */
  accountId: string;
  orchestratorId: string;
  clientIdId: string;
  /** The client ID's public value, as it was when linked. */
  clientId: string;
  status: OrchestratorLinkStatus;
  consentedAt: string;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** How its payers are screened, for a link made by completing a link intent; absent otherwise. */
  kyt?: Schemas["ClientIdLinkKyt"];
}

/**
 * An invitation to create a client ID linked to an orchestrator. Completing it (the Auth API's
 * intent operations) reads it by `accessToken`, creates the client ID and the link, and marks it used.
 */
export interface ClientIdLinkIntentRecord {
  id: string;
  accountId: string;
  orchestratorId: string;
  accessToken: string;
  clientIdName: string;
  allowedDomains: string[];
  externalId: string | null;
  kyt: Schemas["ClientIdLinkIntentKyt"] | null;
  used: boolean;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** A fee an orchestrator takes: its default (`clientIdId` null) or a linked client ID's override. */
export interface OrchestratorFeeConfigRecord {
  id: string;
  accountId: string;
  orchestratorId: string;
  clientIdId: string | null;
  clientId: string | null;
  flow: Schemas["OrchestratorFeeFlow"];
  feeBearer: Schemas["OrchestratorFeeBearer"];
  bps: number;
  usdCap: string | null;
  evmRecipientAddress: string | null;
  tronRecipientAddress: string | null;
  status: "active" | "disabled";
  createdAt: string;
  updatedAt: string;
}

/** The branding members an orchestrator sets, null where unset. */
export interface BrandingSettings {
  logoPath: string | null;
  pageBackgroundColor: string | null;
  cardBackgroundColor: string | null;
  primaryActionColor: string | null;
  primaryTextColor: string | null;
  secondaryTextColor: string | null;
  termsPath: string | null;
  privacyPath: string | null;
  displayRequestBranding: boolean;
}

/** An orchestrator's branding, or a linked client ID's override of it: one per parent. */
export interface OrchestratorBrandingRecord extends BrandingSettings {
  id: string;
  accountId: string;
  orchestratorId: string;
  clientIdId: string | null;
  /** What it brands: `orchestrator`, or the client ID's record id for an override. */
  parent: string;
  createdAt: string;
  updatedAt: string;
}

/** A simulated ERC-20 or native balance in one account's wallet book: base units of `currency` held by `address`. */
export interface WalletBalanceRecord {
  accountId: string;
  address: `0x${string}`;
  currency: string;
  amount: string;
}

/** A simulated ERC-20 allowance in one account's wallet book: base units of `currency` that `spender` may take from `address`. */
export interface WalletAllowanceRecord {
  accountId: string;
  address: `0x${string}`;
  currency: string;
  spender: `0x${string}`;
  amount: string;
}

/** Where one account's sandbox clock stands: milliseconds ahead of (or behind) the base clock. */
export interface SandboxClockRecord {
  accountId: string;
  offsetMs: number;
}

/** How far payment detection has read a chain: every block up to `lastBlock` is handled. */
export interface ChainCursorRecord {
  /** The chain id, in decimal. */
  chainId: string;
  lastBlock: string;
}

/**
 * A contract log payment detection handled, whether it paid a request or named none: a log is
 * handled once, whichever instance reads it first.
 */
export interface ChainLogRecord {
  /** `<chainId>:<txHash>:<logIndex>`, the transaction hash in lower case. */
  logId: string;
  chainId: string;
  blockNumber: string;
  /** The request it paid; null when its reference named no request or the request took no payment. */
  requestId: string | null;
  handledAt: string;
}

/** A state change, kept in the store's outbox in the same transaction as the change itself. */
export interface DomainEvent {
  /** Position in the outbox, assigned by the store. */
  sequence: number;
  type: DomainEventType;
  occurredAt: string;
  data: Record<string, unknown>;
}

export type DomainEventType =
  | "request.created"
  | "request.payment_recorded"
  | "secure_payment.created"
  | "secure_payment.status_changed"
  | "recurring_payment.status_changed"
  | "payer.registered"
  | WebhookEventName;

/** The `data` of a webhook event in the outbox: the payload is fixed when the change commits. */
export interface WebhookEventData {
  eventId: string;
  accountId: string;
  /** The request the event is about; null for events about a payer. */
  requestId: string | null;
  payload: Record<string, unknown>;
}

/** Where a webhook endpoint came from: the configuration file or the sandbox API. */
export type WebhookEndpointSource = Schemas["SandboxWebhookEndpoint"]["source"];

/**
 * Whose events an endpoint receives: the account's own (the sandbox endpoints, every account
 * event), or one orchestrator's (its webhooks, only the orchestrator's events).
 */
export type WebhookEndpointScope = "account" | "orchestrator";

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  scope: WebhookEndpointScope;
  /** The orchestrator of an `orchestrator` endpoint; absent for the account's own. */
  orchestratorId?: string;
  url: string;
  /** The signing secret; never logged, shown only when created or rotated. */
  secret: string;
  /** The events sent to it. */
  events: WebhookEventName[];
  source: WebhookEndpointSource;
  /**
   * The public client ID whose events it receives (an Auth API webhook scoped to a client ID);
   * null or absent: every event of the account (platform-wide).
   */
  clientId?: string | null;
  /** Whether events are sent to it; absent on endpoints made before the Auth API: on. */
  active?: boolean;
  createdAt: string;
  updatedAt: string;
}

export type WebhookDeliveryState = Schemas["SandboxWebhookDelivery"]["state"];

/** One attempt of a delivery, kept as the sandbox API shows it. */
export type WebhookAttemptRecord = Schemas["SandboxWebhookAttempt"];

/** One event sent to one endpoint, with every attempt. Its id is the `x-request-network-delivery`. */
/** An event a delivery can carry: the sandbox's own, or one only test deliveries carry. */
export type DeliveryEventName = Schemas["DeliveredEventName"];

export interface WebhookDeliveryRecord {
  id: string;
  accountId: string;
  endpointId: string;
  url: string;
  eventId: string;
  event: DeliveryEventName;
  /** The request the event is about; null for test events. */
  requestId: string | null;
  test: boolean;
  /** The exact JSON text sent (and signed) on every attempt. */
  body: string;
  state: WebhookDeliveryState;
  /** 1 for the automatic attempts, one more for each manual redelivery. */
  round: number;
  /** The retry count of the next attempt, within the current round. */
  nextRetryCount: number;
  nextAttemptAt: string | null;
  /** Why a dead delivery stopped: its attempts ran out, or its endpoint was deleted. */
  deadReason: Schemas["SandboxWebhookDelivery"]["deadReason"];
  attempts: WebhookAttemptRecord[];
  /**
   * When the worker may make the next attempt, in system time (not a sandbox clock, which an
   * account can move); null for at once. Meaningful only while pending.
   */
  dueAt: string | null;
  /** The worker making an attempt now, and until when it may: after that another may take over. */
  lease: WebhookDeliveryLease | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDeliveryLease {
  owner: string;
  until: string;
  /**
   * New at each claim: the worker changes the delivery only while the lease still carries the
   * token its claim got, so that a worker whose lease ended and was taken over records nothing.
   */
  token: string;
}

/** Asks for due deliveries: pending, `dueAt` at or before `now`, with no lease running past `now`. */
export interface WebhookDeliveryClaim {
  /** The worker taking them. */
  owner: string;
  now: Date;
  /** When the lease of each claimed delivery ends. */
  leaseUntil: Date;
  limit: number;
  /** Only this delivery, if it is due. */
  id?: string;
  /** None of the deliveries to these endpoints (the worker has no room for more attempts to them). */
  skipEndpoints?: readonly string[];
  /** None of these deliveries (the worker is attempting them: a lease of its own that ran out stays its own). */
  skipDeliveries?: readonly string[];
}

/** A slice of a list in insertion order: after the item at position `after` (none: from the start). */
export interface PageRequest {
  after?: number;
  limit: number;
}

export interface Page<R> {
  items: R[];
  /** The position of the last item, to pass as `after` for the next page; null once the list ends. */
  next: number | null;
}

export interface WebhookDeliveryFilter {
  accountId?: string;
  endpointId?: string;
  eventId?: string;
  requestId?: string;
  state?: WebhookDeliveryState;
}

/** A user of the Auth API: signs in with an email address and password, or with a wallet. */
export interface UserRecord {
  id: string;
  /** The sandbox account the user's sessions act for, made for the user at its first sign-in. */
  accountId: string;
  /** How the user signs in, unique: `email:<address>` or `wallet:<address>`, in lower case. */
  login: string;
  email: string | null;
  walletAddress: `0x${string}` | null;
  /** The password's Argon2id hash (PHC string); null for a wallet's user. */
  passwordHash: string | null;
  createdAt: string;
}

/** A signed-in session. The token itself is never stored: only its SHA-256. */
export interface SessionRecord {
  /** SHA-256 of the `session_token` cookie, in hex. */
  tokenHash: string;
  userId: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
}

/** A wallet sign-in challenge: an EIP-4361 message with a one-time nonce. */
export interface WalletChallengeRecord {
  id: string;
  /** The wallet, lower case. */
  address: `0x${string}`;
  chainId: number;
  nonce: string;
  /** The message issued: the signature must be over exactly this. */
  message: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}
