import type {
  ClientIdRecord,
  PayeeDestinationNonceRecord,
  PayeeDestinationRecord,
  PaymentDetailRecord,
  PaymentIntentRecord,
  RequestRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "../../../src/server/index.ts";
import type { RecordOf } from "../../../src/server/store/table-declaration.ts";
import type { StoreTableDeclarations, StoreTableName } from "../../../src/server/store/tables.ts";

export const at = "2026-04-12T10:00:00.000Z";

export const request = (requestId: string, accountId = "acct"): RequestRecord => ({
  requestId,
  accountId,
  network: "base",
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  invoiceAmount: "1",
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
  expectedAmount: "1000000",
  salt: "0011223344556677",
  paymentReference: `0x${requestId.slice(-16)}`,
  status: "pending",
  amountPaid: "0",
  payments: [],
  securePaymentToken: null,
  createdAt: at,
  updatedAt: at,
});

/** A request id ending in sixteen copies of `digit` (a hex digit). */
export const requestId = (digit: string) => `01${digit.repeat(64)}`;

export const clientIdRecord = (id: string, clientId: string, accountId = "acct"): ClientIdRecord => ({
  id,
  accountId,
  clientId,
  label: "Shop",
  allowedDomains: ["https://shop.example.com"],
  feePercentage: null,
  feeAddress: null,
  operatorWalletAddress: null,
  defaultPreApprovalExpiry: null,
  defaultAuthorizationExpiry: null,
  status: "active",
  createdAt: at,
  updatedAt: at,
  lastUsedAt: null,
});

export const endpoint = (id: string, accountId = "acct"): WebhookEndpointRecord => ({
  id,
  accountId,
  url: "https://shop.example.com/hooks",
  secret: "whsec_0123456789abcdef",
  events: ["payment.confirmed"],
  source: "api",
  createdAt: at,
  updatedAt: at,
});

export const delivery = (id: string, fields: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord => ({
  id,
  accountId: "acct",
  endpointId: "we_1",
  url: "https://shop.example.com/hooks",
  eventId: `event_${id}`,
  event: "payment.confirmed",
  requestId: null,
  test: false,
  body: "{}",
  state: "pending",
  round: 1,
  nextRetryCount: 0,
  nextAttemptAt: at,
  deadReason: null,
  attempts: [],
  dueAt: null,
  lease: null,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

export const paymentDetail = (id: string, accountId: string, clientUserId: string): PaymentDetailRecord => ({
  id,
  accountId,
  clientUserId,
  bankName: "Bank",
  accountName: "Holder",
  currency: "EUR",
  beneficiaryType: "individual",
  rails: "local",
  status: "approved",
  createdAt: at,
});

export const paymentIntent = (id: string): PaymentIntentRecord => ({
  id,
  accountId: "acct",
  requestId: requestId("e"),
  payer: "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9",
  amount: "50000000",
  sourceNetwork: "optimism",
  sourceCurrency: "USDC-optimism",
  sourceAmount: "50000000",
  paymentIntent: "{}",
  approvalPermit: null,
  status: "issued",
  createdAt: at,
  updatedAt: at,
});

export const payeeWallet = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";

export const payeeDestination = (
  destinationId: string,
  active: boolean,
  accountId = "acct",
): PayeeDestinationRecord => ({
  accountId,
  destinationId,
  walletAddress: payeeWallet,
  chainId: 11155111,
  network: "sepolia",
  tokenAddress: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
  active,
  createdAt: at,
  updatedAt: at,
  deactivatedAt: active ? null : at,
});

export const payeeDestinationNonce = (nonce: string): PayeeDestinationNonceRecord => ({
  nonce,
  accountId: "acct",
  action: "add",
  destinationId: "dest_current",
  walletAddress: payeeWallet,
  typedData: '{"primaryType":"PayeeDestination"}',
  expiresAt: "2026-04-12T10:10:00.000Z",
  usedAt: null,
});

/**
 * One record of each declared table, in every lookup of its table (a pending delivery, an active
 * destination): the conformance suite keeps, finds and deletes each by its declaration alone. A
 * new table is a type error here until it has one.
 */
export const sampleRecords: { [N in StoreTableName]: RecordOf<StoreTableDeclarations[N]> } = {
  requests: { ...request(requestId("a")), recurringPaymentId: "rp_1" },
  paymentIntents: paymentIntent("01KP3G7ZQ6V2D8W4N5R9T1XHJC"),
  securePayments: {
    token: "tok",
    accountId: "acct",
    requestIds: [requestId("a")],
    network: "base",
    status: "pending",
    reference: null,
    redirectUrl: null,
    redirectLabel: null,
    payerIdentifier: null,
    kind: "incoming",
    createdAt: at,
    expiresAt: at,
    updatedAt: at,
  },
  payeeDestinations: payeeDestination("dest_current", true),
  payeeDestinationNonces: payeeDestinationNonce("n1"),
  recurringPayments: {
    id: "rp_1",
    accountId: "acct",
    status: "active",
    payer: payeeWallet,
    payee: payeeWallet,
    currency: "USDC-base",
    amountPerPayment: "1000000",
    totalPayments: 3,
    processedPayments: 0,
    spender: payeeWallet,
    nextPaymentDate: null,
    createdAt: at,
    updatedAt: at,
  },
  payers: {
    accountId: "acct",
    clientUserId: "ada",
    userId: "u1",
    beneficiaryType: "individual",
    kycStatus: "not_started",
    agreementStatus: "not_started",
    createdAt: at,
  },
  paymentDetails: paymentDetail("pd_1", "acct", "ada"),
  clientIds: clientIdRecord("cid_1", "pk_one"),
  balances: { accountId: "acct", address: payeeWallet, currency: "USDC-base", amount: "5" },
  allowances: {
    accountId: "acct",
    address: payeeWallet,
    currency: "USDC-base",
    spender: payeeWallet,
    amount: "9",
  },
  sandboxClocks: { accountId: "acct", offsetMs: 5000 },
  webhookEndpoints: endpoint("we_1"),
  webhookDeliveries: delivery("d1", { requestId: requestId("a") }),
  chainCursors: { chainId: "11155111", lastBlock: "42" },
  chainLogs: {
    logId: "11155111:0x5f1c8e2a9b3d4c6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f:3",
    chainId: "11155111",
    blockNumber: "42",
    requestId: requestId("a"),
    handledAt: at,
  },
};
