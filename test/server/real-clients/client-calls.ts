import type { operations } from "../../../generated/schema.d.ts";

/**
 * The calls that real client code of the service makes, transcribed as data: which client and
 * file makes each, the operation, the credential and body it sends (extra members and lower-case
 * codes included), the status it expects and the members of the answer it reads, with their
 * types. real-client-calls.test.ts makes every call against the reference server in the order
 * listed, as the client's flow would.
 *
 * A string value `{name}` (whole) stands for the flow's value of that name, of any type; `{name}`
 * inside a longer string for its text.
 */

export type RealClient = "easy-invoice" | "request-network-api-client-ts" | "integration-demo";

/**
 * The type a read member must have: JSON types, joined by `|`; a trailing `?` when the client
 * copes with the member being absent.
 */
export type MemberType =
  | "string"
  | "number"
  | "boolean"
  | "object"
  | "array"
  | "string|null"
  | "number|null"
  | "object|null"
  | "string?"
  | "number?"
  | "string|number?"
  | "boolean?"
  | "object?"
  | "array?"
  | "string|null?"
  | "object|null?";

export type Credential =
  /** `x-api-key`, sent from a server. */
  | "apiKey"
  /** `X-Api-Key`, spelled so by the client (headers are case-insensitive). */
  | "apiKeyCapitalised"
  /** `x-client-id` with the browser's `Origin`. */
  | "clientId"
  /** `x-orchestrator-key`: the orchestrator's own key. */
  | "orchestratorKey"
  /** `Authorization: Bearer` with the session token of a sign-in (`{sessionToken}`). */
  | "sessionBearer";

/** The names of the steps the test takes before a call, for what the client's user does outside the API. */
export type Preparation =
  /** The payer's wallet signs the recurring payment permit the payout answered: `{permitSignature}`. */
  | "signRecurringPermit"
  /** The service approves the payer's KYC, agreement and bank details (the sandbox stands in for it). */
  | "approvePayer"
  /** The payee's wallet signs the typed data of `{destinationSigningData}`: `{destinationSignature}`. */
  | "signPayeeDestination"
  /** The payee's wallet signs the deactivation of its destination: `{deactivationNonce}`, `{deactivationSignature}`. */
  | "signDestinationDeactivation"
  /** The payer's wallet signs the payment intent (and the approval permit) of `{intentPay}`: `{signedPermits}`. */
  | "signPaymentIntent"
  /** A user of the dashboard signs in with a wallet: `{sessionToken}`. */
  | "signIn"
  /** The account creates the client ID its orchestrator links: `{linkedClientId}`. */
  | "createClientIdToLink";

export interface ClientCall {
  client: RealClient;
  /** The client's file that makes the call, and where in it. */
  source: string;
  /** Ours; null when no operation of ours (nor of the published contract) has that method and path. */
  operationId: keyof operations | null;
  /** The service's own operationId, for its published answer schema. */
  upstreamOperationId: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path and query as the client builds them. */
  path: string;
  credential: Credential;
  /** The JSON body as the client sends it; absent when it sends none. */
  body?: unknown;
  needs?: Preparation[];
  /** The status the client expects. */
  status: number;
  /** The members of the answer the client reads (`a.b`, `list[].member`, `[]` for the items of a top-level list), with their types. */
  reads: Record<string, MemberType>;
  /** Members whose values are known. */
  equals?: Record<string, unknown>;
  /** Values of the answer the flow keeps for later calls: name -> member (`$` for the whole answer). */
  keep?: Record<string, string>;
  /** Why the client's call is wrong against the published contract, when it is: `status` is then the answer to it. */
  clientDeparts?: string;
  /**
   * A difference payreq keeps (docs/differences.md), where the client's call is right: `status`
   * is then payreq's answer, and `serviceStatus` the one the client expects from the service.
   */
  payreqDiffers?: { reason: string; serviceStatus: number };
}

const invoiceTrpc = "src/server/routers/invoice.ts";
const paymentTrpc = "src/server/routers/payment.ts";
const complianceTrpc = "src/server/routers/compliance.ts";
const recurringTrpc = "src/server/routers/recurring-payment.ts";
const apiClientDomains = "src/domains";

/** What easy-invoice stores for a payee's bank account, and sends whole (minus nulls) as payment details. */
const easyInvoiceBankRow = {
  id: "01KQ3Z6W8S0J5TB2D3Y6M9V4XE",
  userId: "01KQ3Z5P9C7D2N4B6X8R1T3V5W",
  bankName: "Sparkasse Köln",
  accountName: "Jonas Weber",
  accountNumber: "0532013000",
  routingNumber: "37050198",
  accountType: "checking",
  iban: "DE89370400440532013000",
  swiftBic: "COLSDE33",
  beneficiaryType: "individual",
  dateOfBirth: "1988-03-14",
  addressLine1: "Hohe Straße 52",
  city: "Köln",
  state: "NRW",
  postalCode: "50667",
  country: "DE",
  rails: "local",
  currency: "eur",
  phone: "+4922112345678",
  nationality: "DE",
  gender: "male",
  createdAt: "2026-04-10T08:12:45.120Z",
  updatedAt: "2026-04-10T08:12:45.120Z",
};

/** easy-invoice's compliance form, sent as is to `POST /v2/payer`: it asks for an SSN from US payers only. */
const easyInvoiceComplianceForm = {
  clientUserId: "amara.okafor@example.com",
  email: "amara.okafor@example.com",
  firstName: "Amara",
  lastName: "Okafor",
  beneficiaryType: "individual",
  dateOfBirth: "1991-07-22",
  addressLine1: "12 Marina Road",
  city: "Lagos",
  state: "Lagos",
  postcode: "101241",
  country: "NG",
  nationality: "NG",
  phone: "+2348031234567",
};

const easyInvoiceUsComplianceForm = {
  clientUserId: "{payerEmail}",
  email: "{payerEmail}",
  firstName: "Dana",
  lastName: "Whitfield",
  beneficiaryType: "individual",
  dateOfBirth: "1984-02-09",
  addressLine1: "350 Fifth Avenue",
  city: "New York",
  state: "NY",
  postcode: "10118",
  country: "US",
  nationality: "US",
  phone: "+12125550123",
  ssn: "123-45-6789",
};

/** The published body of `POST /v2/payer` (api-client-ts checks bodies against it before sending). */
const publishedPayerBody = (clientUserId: string) => ({
  clientUserId,
  email: "lena.fischer@example.com",
  firstName: "Lena",
  lastName: "Fischer",
  beneficiaryType: "individual",
  dateOfBirth: "1986-11-03",
  addressLine1: "Torstraße 101",
  city: "Berlin",
  state: "BE",
  postcode: "10119",
  country: "DE",
  nationality: "DE",
  phone: "+493012345678",
  ssn: "123-45-6789",
});

const publishedBankBody = {
  bankName: "Berliner Volksbank",
  accountName: "Lena Fischer",
  iban: "DE02100900001234567890",
  swiftBic: "BEVODEBB",
  beneficiaryType: "individual",
  currency: "eur",
  addressLine1: "Torstraße 101",
  city: "Berlin",
  country: "DE",
  dateOfBirth: "1986-11-03",
  postalCode: "10119",
};

const transactionMembers = {
  "transactions[].data": "string",
  "transactions[].to": "string",
} as const satisfies Record<string, MemberType>;

export const easyInvoiceCalls: ClientCall[] = [
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} createInvoiceHelper`,
    operationId: "createRequest",
    upstreamOperationId: "RequestControllerV2_createRequest_v2",
    method: "POST",
    path: "/v2/request",
    credential: "apiKey",
    body: {
      amount: "150",
      payee: "{payee}",
      invoiceCurrency: "USD",
      paymentCurrency: "FAU-sepolia",
      isCryptoToFiatAvailable: false,
    },
    status: 201,
    reads: { requestId: "string", paymentReference: "string" },
    keep: { requestId: "requestId" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} createInvoiceHelper (a recurring invoice)`,
    operationId: "createRequest",
    upstreamOperationId: "RequestControllerV2_createRequest_v2",
    method: "POST",
    path: "/v2/request",
    credential: "apiKey",
    body: {
      amount: "80",
      payee: "{payee}",
      invoiceCurrency: "USD",
      paymentCurrency: "FAU-sepolia",
      isCryptoToFiatAvailable: false,
      recurrence: { startDate: "2026-04-12", frequency: "MONTHLY" },
    },
    status: 201,
    reads: { requestId: "string", paymentReference: "string" },
    keep: { recurringRequestId: "requestId" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} createInvoiceHelper (crypto-to-fiat: no payee)`,
    operationId: "createRequest",
    upstreamOperationId: "RequestControllerV2_createRequest_v2",
    method: "POST",
    path: "/v2/request",
    credential: "apiKey",
    body: {
      amount: "200",
      invoiceCurrency: "EUR",
      paymentCurrency: "FAU-sepolia",
      isCryptoToFiatAvailable: true,
    },
    status: 201,
    reads: { requestId: "string", paymentReference: "string" },
    keep: { offRampRequestId: "requestId" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} createInvoiceHelper (an invoice paid in USDC on Base)`,
    operationId: "createRequest",
    upstreamOperationId: "RequestControllerV2_createRequest_v2",
    method: "POST",
    path: "/v2/request",
    credential: "apiKey",
    body: {
      amount: "60",
      payee: "{payee}",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      isCryptoToFiatAvailable: false,
    },
    status: 201,
    reads: { requestId: "string", paymentReference: "string" },
    keep: { crossChainRequestId: "requestId" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} getPaymentRoutes`,
    operationId: "listRequestRoutes",
    upstreamOperationId: "RequestControllerV2_getRequestPaymentRoutes_v2",
    method: "GET",
    path: "/v2/request/{requestId}/routes?wallet={wallet}&feePercentage=0.5&feeAddress={feeAddress}",
    credential: "apiKey",
    status: 200,
    reads: {
      routes: "array",
      "routes[].id": "string",
      "routes[].chain": "string",
      "routes[].token": "string",
      "routes[].fee": "number",
      "routes[].feeInUSD": "number?",
      "routes[].speed": "string|number?",
      "routes[].isCryptoToFiat": "boolean?",
      "routes[].feeBreakdown": "array?",
      platformFee: "object?",
    },
    equals: { "routes[0].id": "REQUEST_NETWORK_PAYMENT" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} payRequest, read by src/components/payment-section.tsx handleDirectPayments`,
    operationId: "getPayCalldata",
    upstreamOperationId: "RequestControllerV2_getPaymentCalldata_v2",
    method: "GET",
    path: "/v2/request/{requestId}/pay?wallet={wallet}&feePercentage=0.5&feeAddress={feeAddress}",
    credential: "apiKey",
    status: 200,
    reads: {
      ...transactionMembers,
      "metadata.needsApproval": "boolean",
      "metadata.paymentTransactionIndex": "number",
    },
    equals: { "metadata.needsApproval": true, "metadata.paymentTransactionIndex": 1 },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} payRequest (a route on another chain), read by payment-section.tsx handleCrosschainPayments`,
    operationId: "getPayCalldata",
    upstreamOperationId: "RequestControllerV2_getPaymentCalldata_v2",
    method: "GET",
    path: "/v2/request/{crossChainRequestId}/pay?wallet={wallet}&chain=ARBITRUM&token=USDT",
    credential: "apiKey",
    status: 200,
    reads: {
      paymentIntentId: "string",
      paymentIntent: "string",
      approvalPermitPayload: "string|null?",
      "metadata.supportsEIP2612": "boolean",
    },
    keep: { paymentIntentId: "paymentIntentId", intentPay: "$" },
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} getComplianceStatus (a payer not yet registered: the client expects 404)`,
    operationId: "getPayerComplianceStatus",
    upstreamOperationId: "PayerV2Controller_getComplianceStatus_v2",
    method: "GET",
    path: "/v2/payer/{payerEmailInPath}",
    credential: "apiKey",
    status: 404,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} submitComplianceInfo`,
    operationId: "registerPayer",
    upstreamOperationId: "PayerV2Controller_getComplianceData_v2",
    method: "POST",
    path: "/v2/payer",
    credential: "apiKey",
    body: easyInvoiceComplianceForm,
    status: 400,
    reads: {},
    clientDeparts:
      "sends no `ssn` for a payer outside the US, where the published operation requires it (0.13.0 and 0.31.0 alike)",
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} submitComplianceInfo (a US payer, with an SSN)`,
    operationId: "registerPayer",
    upstreamOperationId: "PayerV2Controller_getComplianceData_v2",
    method: "POST",
    path: "/v2/payer",
    credential: "apiKey",
    body: easyInvoiceUsComplianceForm,
    status: 200,
    reads: { agreementUrl: "string", kycUrl: "string", userId: "string" },
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} updateAgreementStatus`,
    operationId: "updatePayerComplianceStatus",
    upstreamOperationId: "PayerV2Controller_updateComplianceStatus_v2",
    method: "PATCH",
    path: "/v2/payer/{payerEmailInPath}",
    credential: "apiKey",
    body: { agreementCompleted: true },
    status: 200,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} getComplianceStatus`,
    operationId: "getPayerComplianceStatus",
    upstreamOperationId: "PayerV2Controller_getComplianceStatus_v2",
    method: "GET",
    path: "/v2/payer/{payerEmailInPath}",
    credential: "apiKey",
    status: 200,
    reads: { kycStatus: "string", agreementStatus: "string", isCompliant: "boolean" },
    equals: { agreementStatus: "completed", isCompliant: false },
  },
  {
    client: "easy-invoice",
    source: `${complianceTrpc} allowPaymentDetails (the whole stored row, nulls dropped)`,
    operationId: "createPaymentDetailsV2",
    upstreamOperationId: "PayerV2Controller_createPaymentDetails_v2",
    method: "POST",
    path: "/v2/payer/{payerEmailInPath}/payment-details",
    credential: "apiKey",
    body: easyInvoiceBankRow,
    status: 201,
    reads: { "payment_detail.id": "string" },
    equals: { "payment_detail.currency": "EUR" },
    keep: { paymentDetailsId: "payment_detail.id" },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} payRequest (an invoice with bank details: crypto-to-fiat)`,
    operationId: "getPayCalldata",
    upstreamOperationId: "RequestControllerV2_getPaymentCalldata_v2",
    method: "GET",
    path: "/v2/request/{offRampRequestId}/pay?wallet={wallet}&clientUserId={payerEmailInPath}&paymentDetailsId={paymentDetailsId}&feePercentage=0.5&feeAddress={feeAddress}",
    credential: "apiKey",
    needs: ["approvePayer"],
    status: 200,
    reads: {
      ...transactionMembers,
      "metadata.needsApproval": "boolean",
      "metadata.paymentTransactionIndex": "number",
    },
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} stopRecurrence`,
    operationId: "updateRequest",
    upstreamOperationId: "RequestControllerV2_updateRequest_v2",
    method: "PATCH",
    path: "/v2/request/{recurringRequestId}",
    credential: "apiKey",
    body: { isRecurrenceStopped: true },
    status: 200,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/currency.ts getConversionCurrencies",
    operationId: "listConversionRoutesV2",
    upstreamOperationId: "CurrenciesV2Controller_getConversionRoutes_v2",
    method: "GET",
    path: "/v2/currencies/USD/conversion-routes?network=sepolia",
    credential: "apiKey",
    status: 200,
    reads: {
      currencyId: "string",
      network: "string",
      conversionRoutes: "array",
      "conversionRoutes[].id": "string",
      "conversionRoutes[].symbol": "string",
      "conversionRoutes[].decimals": "number",
      "conversionRoutes[].address": "string",
      "conversionRoutes[].type": "string",
      "conversionRoutes[].network": "string",
    },
    equals: { currencyId: "USD", network: "sepolia" },
  },
  {
    client: "easy-invoice",
    source: `${paymentTrpc} pay`,
    operationId: "createPayout",
    upstreamOperationId: "PayoutV2Controller_payRequest_v2",
    method: "POST",
    path: "/v2/payouts",
    credential: "apiKey",
    body: {
      amount: "42.5",
      payee: "{payee}",
      invoiceCurrency: "USD",
      paymentCurrency: "FAU-sepolia",
      feePercentage: "0.5",
      feeAddress: "{feeAddress}",
    },
    status: 201,
    reads: { requestId: "string", ...transactionMembers, "metadata.paymentTransactionIndex": "number" },
  },
  {
    client: "easy-invoice",
    source: `${paymentTrpc} pay (a recurrence), read by src/lib/hooks/use-create-recurring-payment.ts`,
    operationId: "createPayout",
    upstreamOperationId: "PayoutV2Controller_payRequest_v2",
    method: "POST",
    path: "/v2/payouts",
    credential: "apiKey",
    body: {
      amount: "15",
      payee: "{payee}",
      invoiceCurrency: "FAU-sepolia",
      paymentCurrency: "FAU-sepolia",
      recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 6, payer: "{subscriber}" },
      feePercentage: "0.5",
      feeAddress: "{feeAddress}",
    },
    status: 201,
    reads: {
      id: "string",
      transactions: "array",
      "recurringPaymentPermit.domain": "object",
      "recurringPaymentPermit.types": "object",
      "recurringPaymentPermit.values": "object",
    },
    keep: { recurringPaymentId: "id", recurringPaymentPermit: "recurringPaymentPermit" },
  },
  {
    client: "easy-invoice",
    source: `${paymentTrpc} submitRecurringSignature`,
    operationId: "submitRecurringPaymentSignature",
    upstreamOperationId: "PayoutV2Controller_submitRecurringPaymentSignature_v2",
    method: "POST",
    path: "/v2/payouts/recurring/{recurringPaymentId}",
    credential: "apiKey",
    body: { permitSignature: "{permitSignature}" },
    needs: ["signRecurringPermit"],
    status: 201,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: `${recurringTrpc} updateRecurringPayment`,
    operationId: "updateRecurringPayment",
    upstreamOperationId: "PayoutV2Controller_updateRecurringPayment_v2",
    method: "PATCH",
    path: "/v2/payouts/recurring/{recurringPaymentId}",
    credential: "apiKey",
    body: { action: "cancel" },
    status: 200,
    reads: { id: "string", status: "string", transactions: "array?", metadata: "object?" },
    equals: { status: "cancelled" },
  },
  {
    client: "easy-invoice",
    source: `${paymentTrpc} batchPay (payouts)`,
    operationId: "createBatchPayout",
    upstreamOperationId: "PayoutV2Controller_payBatchRequest_v2",
    method: "POST",
    path: "/v2/payouts/batch",
    credential: "apiKey",
    body: {
      requests: [
        {
          amount: "10",
          payee: "{payee}",
          invoiceCurrency: "FAU-sepolia",
          paymentCurrency: "FAU-sepolia",
          feePercentage: "0.5",
          feeAddress: "{feeAddress}",
        },
        {
          amount: "0.01",
          payee: "{payee}",
          invoiceCurrency: "ETH-sepolia-sepolia",
          paymentCurrency: "ETH-sepolia-sepolia",
          feePercentage: "0.5",
          feeAddress: "{feeAddress}",
        },
      ],
      payer: "{wallet}",
    },
    status: 201,
    reads: {
      ERC20ApprovalTransactions: "array",
      "batchPaymentTransaction.data": "string",
      "batchPaymentTransaction.to": "string",
    },
  },
  {
    client: "easy-invoice",
    source: `${paymentTrpc} batchPay (invoices), read by src/lib/invoice/batch-payment.ts`,
    operationId: "createBatchPayout",
    upstreamOperationId: "PayoutV2Controller_payBatchRequest_v2",
    method: "POST",
    path: "/v2/payouts/batch",
    credential: "apiKey",
    body: { requestIds: ["{requestId}"], payer: "{wallet}" },
    status: 201,
    reads: {
      ERC20ApprovalTransactions: "array",
      "batchPaymentTransaction.data": "string",
      "batchPaymentTransaction.to": "string",
    },
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/ecommerce.ts create (no fee: null members)",
    operationId: "createClientId",
    upstreamOperationId: "ClientIdV2Controller_create_v2",
    method: "POST",
    path: "/v2/client-ids",
    credential: "apiKey",
    body: {
      label: "Shop front",
      allowedDomains: ["https://shop.example.com"],
      feePercentage: null,
      feeAddress: null,
    },
    status: 201,
    reads: { id: "string", clientId: "string" },
    keep: { shopClientIdId: "id" },
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/ecommerce.ts create (with a fee: its form keeps the percentage a string)",
    operationId: "createClientId",
    upstreamOperationId: "ClientIdV2Controller_create_v2",
    method: "POST",
    path: "/v2/client-ids",
    credential: "apiKey",
    body: {
      label: "Shop front (fees)",
      allowedDomains: ["https://fees.shop.example.com"],
      feePercentage: "1.5",
      feeAddress: "{feeAddress}",
    },
    status: 201,
    reads: { id: "string", clientId: "string" },
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/client-id.ts create (its form coerces the percentage to a number)",
    operationId: "createClientId",
    upstreamOperationId: "ClientIdV2Controller_create_v2",
    method: "POST",
    path: "/v2/client-ids",
    credential: "apiKey",
    body: {
      label: "Widget",
      allowedDomains: ["https://widget.example.com"],
      feeAddress: "{feeAddress}",
      feePercentage: 2.5,
    },
    status: 400,
    reads: {},
    clientDeparts:
      'sends `feePercentage` as a JSON number, where the published operation takes a string (`"2.5"`), as its ecommerce router sends it',
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/ecommerce.ts edit",
    operationId: "updateClientId",
    upstreamOperationId: "ClientIdV2Controller_update_v2",
    method: "PUT",
    path: "/v2/client-ids/{shopClientIdId}",
    credential: "apiKey",
    body: {
      label: "Shop front (EU)",
      allowedDomains: ["https://eu.shop.example.com"],
      feePercentage: null,
      feeAddress: null,
    },
    status: 200,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: "src/server/routers/ecommerce.ts delete",
    operationId: "deleteClientId",
    upstreamOperationId: "ClientIdV2Controller_delete_v2",
    method: "DELETE",
    path: "/v2/client-ids/{shopClientIdId}",
    credential: "apiKey",
    status: 200,
    reads: {},
  },
  {
    client: "easy-invoice",
    source: `${invoiceTrpc} sendPaymentIntent, sent by payment-section.tsx handleCrosschainPayments`,
    operationId: "sendPaymentIntent",
    upstreamOperationId: "RequestControllerV2_sendPaymentIntent_v2",
    method: "POST",
    path: "/v2/request/payment-intents/{paymentIntentId}",
    credential: "apiKey",
    body: "{signedPermits}",
    needs: ["signPaymentIntent"],
    status: 200,
    reads: {},
  },
];

const requestsV2 = `${apiClientDomains}/requests/requests.facade.ts`;
const requestsV1 = `${apiClientDomains}/requests/v1/requests.v1.facade.ts`;
const payoutsFacade = `${apiClientDomains}/payouts/payouts.facade.ts`;
const payerV2 = `${apiClientDomains}/payer/v2/payer.v2.facade.ts`;
const payerV1 = `${apiClientDomains}/payer/v1/payer.v1.facade.ts`;
const clientIdsFacade = `${apiClientDomains}/client-ids/client-ids.facade.ts`;
const destinationsFacade = `${apiClientDomains}/payee-destination/payee-destination.facade.ts`;
const securePaymentsFacade = `${apiClientDomains}/secure-payments/secure-payments.facade.ts`;

/** The members its own zod schemas (currencies.schemas.ts) check in each token, beyond the published schema. */
const tokenMembers = (prefix: string) =>
  ({
    [`${prefix}.id`]: "string",
    [`${prefix}.symbol`]: "string",
    [`${prefix}.decimals`]: "number",
    [`${prefix}.address`]: "string?",
    [`${prefix}.network`]: "string?",
    [`${prefix}.chainId`]: "number?",
  }) satisfies Record<string, MemberType>;

/** What the payer facades of both versions send and read, under `/v1` or `/v2`. */
function payerCalls(version: "v1" | "v2", clientUserId: string): ClientCall[] {
  const source = version === "v2" ? payerV2 : payerV1;
  const controller = version === "v2" ? "PayerV2Controller" : "PayerV1Controller";
  const suffix = version === "v2" ? "_v2" : "_v1";
  const ours = {
    register: version === "v2" ? "registerPayer" : "registerPayerV1",
    status: version === "v2" ? "getPayerComplianceStatus" : "getPayerComplianceStatusV1",
    update: version === "v2" ? "updatePayerComplianceStatus" : "updatePayerComplianceStatusV1",
    createDetails: version === "v2" ? "createPaymentDetailsV2" : "createPaymentDetails",
    listDetails: version === "v2" ? "listPaymentDetails" : "listPaymentDetailsV1",
  } as const;
  const base = {
    client: "request-network-api-client-ts",
    credential: "apiKey",
    reads: {},
  } as const;
  return [
    {
      ...base,
      source: `${source} createComplianceData`,
      operationId: ours.register,
      upstreamOperationId: `${controller}_getComplianceData${suffix}`,
      method: "POST",
      path: `/${version}/payer`,
      body: publishedPayerBody(clientUserId),
      status: 200,
    },
    {
      ...base,
      source: `${source} getComplianceStatus`,
      operationId: ours.status,
      upstreamOperationId: `${controller}_getComplianceStatus${suffix}`,
      method: "GET",
      path: `/${version}/payer/${clientUserId}`,
      status: 200,
    },
    {
      ...base,
      source: `${source} updateComplianceStatus`,
      operationId: ours.update,
      upstreamOperationId: `${controller}_updateComplianceStatus${suffix}`,
      method: "PATCH",
      path: `/${version}/payer/${clientUserId}`,
      body: { agreementCompleted: true },
      status: 200,
    },
    {
      ...base,
      source: `${source} createPaymentDetails`,
      operationId: ours.createDetails,
      upstreamOperationId: `${controller}_createPaymentDetails${suffix}`,
      method: "POST",
      path: `/${version}/payer/${clientUserId}/payment-details`,
      body: publishedBankBody,
      status: 201,
    },
    {
      ...base,
      source: `${source} getPaymentDetails`,
      operationId: ours.listDetails,
      upstreamOperationId: `${controller}_getPaymentDetails${suffix}`,
      method: "GET",
      path: `/${version}/payer/${clientUserId}/payment-details`,
      status: 200,
    },
  ];
}

export const apiClientTsCalls: ClientCall[] = [
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/currencies/currencies.facade.ts list`,
    operationId: "listCurrenciesV2",
    upstreamOperationId: "CurrenciesV2Controller_getNetworkTokens_v2",
    method: "GET",
    path: "/v2/currencies?network=sepolia",
    credential: "apiKey",
    status: 200,
    reads: { "[]": "object", ...tokenMembers("[]") },
  },
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/currencies/currencies.facade.ts getConversionRoutes`,
    operationId: "listConversionRoutesV2",
    upstreamOperationId: "CurrenciesV2Controller_getConversionRoutes_v2",
    method: "GET",
    path: "/v2/currencies/USD/conversion-routes?networks=sepolia,base",
    credential: "apiKey",
    status: 200,
    reads: {
      currencyId: "string",
      network: "string|null?",
      conversionRoutes: "array",
      ...tokenMembers("conversionRoutes[]"),
    },
  },
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/currencies/v1/currencies.v1.facade.ts list (one token by id: an object)`,
    operationId: "listCurrencies",
    upstreamOperationId: "CurrenciesV1Controller_getNetworkTokens_v1",
    method: "GET",
    path: "/v1/currencies?id=FAU-sepolia",
    credential: "apiKey",
    status: 200,
    reads: { id: "string", symbol: "string", decimals: "number" },
    equals: { id: "FAU-sepolia", symbol: "FAU", decimals: 18 },
  },
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/currencies/v1/currencies.v1.facade.ts getConversionRoutes`,
    operationId: "listConversionRoutes",
    upstreamOperationId: "CurrenciesV1Controller_getConversionRoutes_v1",
    method: "GET",
    path: "/v1/currencies/EUR/conversion-routes?network=base",
    credential: "apiKey",
    status: 200,
    reads: { currencyId: "string", conversionRoutes: "array", ...tokenMembers("conversionRoutes[]") },
  },
  {
    client: "request-network-api-client-ts",
    source: `${clientIdsFacade} create`,
    operationId: "createClientId",
    upstreamOperationId: "ClientIdV2Controller_create_v2",
    method: "POST",
    path: "/v2/client-ids",
    credential: "apiKey",
    body: { label: "Checkout widget", allowedDomains: ["https://pay.example.org"] },
    status: 201,
    reads: { id: "string", clientId: "string" },
    keep: { apiClientIdId: "id" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${clientIdsFacade} list`,
    operationId: "listClientIds",
    upstreamOperationId: "ClientIdV2Controller_findAll_v2",
    method: "GET",
    path: "/v2/client-ids",
    credential: "apiKey",
    status: 200,
    reads: { "[]": "object", "[].id": "string", "[].clientId": "string" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${clientIdsFacade} findOne`,
    operationId: "getClientId",
    upstreamOperationId: "ClientIdV2Controller_findOne_v2",
    method: "GET",
    path: "/v2/client-ids/{apiClientIdId}",
    credential: "apiKey",
    status: 200,
    reads: { id: "string", clientId: "string" },
    equals: { id: "{apiClientIdId}", label: "Checkout widget" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${clientIdsFacade} update`,
    operationId: "updateClientId",
    upstreamOperationId: "ClientIdV2Controller_update_v2",
    method: "PUT",
    path: "/v2/client-ids/{apiClientIdId}",
    credential: "apiKey",
    body: { label: "Checkout widget v2" },
    status: 200,
    reads: { id: "string" },
    equals: { label: "Checkout widget v2" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${clientIdsFacade} revoke`,
    operationId: "deleteClientId",
    upstreamOperationId: "ClientIdV2Controller_delete_v2",
    method: "DELETE",
    path: "/v2/client-ids/{apiClientIdId}",
    credential: "apiKey",
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} create`,
    operationId: "createRequest",
    upstreamOperationId: "RequestControllerV2_createRequest_v2",
    method: "POST",
    path: "/v2/request",
    credential: "apiKey",
    body: { amount: "25", payee: "{payee}", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    status: 201,
    reads: { requestId: "string", paymentReference: "string" },
    keep: { apiRequestId: "requestId" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} getRequestStatus (normalizeRequestStatusResponse)`,
    operationId: "getRequestStatus",
    upstreamOperationId: "RequestControllerV2_getRequestStatus_v2",
    method: "GET",
    path: "/v2/request/{apiRequestId}",
    credential: "apiKey",
    status: 200,
    reads: {
      hasBeenPaid: "boolean",
      status: "string?",
      txHash: "string|null?",
      requestId: "string?",
      paymentReference: "string?",
      isListening: "boolean?",
      payments: "array?",
      customerInfo: "object|null?",
      reference: "string|null?",
    },
    equals: { hasBeenPaid: false, requestId: "{apiRequestId}" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} getPaymentRoutes`,
    operationId: "listRequestRoutes",
    upstreamOperationId: "RequestControllerV2_getRequestPaymentRoutes_v2",
    method: "GET",
    path: "/v2/request/{apiRequestId}/routes?wallet={wallet}&amount=25",
    credential: "apiKey",
    status: 200,
    reads: { routes: "array", "routes[].id": "string" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} getPaymentCalldata (kind calldata)`,
    operationId: "getPayCalldata",
    upstreamOperationId: "RequestControllerV2_getPaymentCalldata_v2",
    method: "GET",
    path: "/v2/request/{apiRequestId}/pay?wallet={wallet}",
    credential: "apiKey",
    status: 200,
    reads: { transactions: "array", ...transactionMembers },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} update`,
    operationId: "updateRequest",
    upstreamOperationId: "RequestControllerV2_updateRequest_v2",
    method: "PATCH",
    path: "/v2/request/{apiRequestId}",
    credential: "apiKey",
    status: 400,
    reads: {},
    clientDeparts:
      "sends no body, where the published operation requires one with `isRecurrenceStopped`: the service answers 400",
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} getPaymentCalldata (kind paymentIntent)`,
    operationId: "getPayCalldata",
    upstreamOperationId: "RequestControllerV2_getPaymentCalldata_v2",
    method: "GET",
    path: "/v2/request/{apiRequestId}/pay?wallet={wallet}&chain=OPTIMISM&token=USDC",
    credential: "apiKey",
    status: 200,
    reads: { paymentIntentId: "string" },
    keep: { paymentIntentId: "paymentIntentId", intentPay: "$" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV2} sendPaymentIntent`,
    operationId: "sendPaymentIntent",
    upstreamOperationId: "RequestControllerV2_sendPaymentIntent_v2",
    method: "POST",
    path: "/v2/request/payment-intents/{paymentIntentId}",
    credential: "apiKey",
    body: "{signedPermits}",
    needs: ["signPaymentIntent"],
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/payments/payments.facade.ts search (payments.schemas.ts)`,
    operationId: "searchPayments",
    upstreamOperationId: "PaymentV2Controller_searchPayments_v2",
    method: "GET",
    path: "/v2/payments?requestId={apiRequestId}",
    credential: "apiKey",
    status: 200,
    reads: {
      payments: "array",
      "payments[].id": "string",
      "payments[].amount": "string",
      "payments[].sourceNetwork": "string",
      "payments[].destinationNetwork": "string",
      "payments[].timestamp": "string",
      "payments[].type": "string",
      "payments[].currency": "string",
      "payments[].paymentCurrency": "string",
      "payments[].fees": "array?",
      "payments[].request": "object?",
      "pagination.total": "number",
      "pagination.limit": "number",
      "pagination.offset": "number",
      "pagination.hasMore": "boolean",
    },
    equals: { "pagination.total": 1, "payments[0].type": "crosschain", "payments[0].amount": "25" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} create`,
    operationId: "createRequestV1",
    upstreamOperationId: "RequestControllerV1_createRequest_v1",
    method: "POST",
    path: "/v1/request",
    credential: "apiKey",
    body: {
      payee: "{payee}",
      amount: "30",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      recurrence: { startDate: "2026-04-20", frequency: "WEEKLY" },
    },
    status: 201,
    reads: { paymentReference: "string", requestID: "string?" },
    keep: { v1PaymentReference: "paymentReference" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} getPaymentRoutes`,
    operationId: "listPaymentRoutes",
    upstreamOperationId: "RequestControllerV1_getRequestPaymentRoutes_v1",
    method: "GET",
    path: "/v1/request/{v1PaymentReference}/routes?wallet={wallet}",
    credential: "apiKey",
    status: 200,
    reads: { routes: "array" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} getPaymentCalldata`,
    operationId: "getPayCalldataV1",
    upstreamOperationId: "RequestControllerV1_getPaymentCalldata_v1",
    method: "GET",
    path: "/v1/request/{v1PaymentReference}/pay?wallet={wallet}",
    credential: "apiKey",
    status: 200,
    reads: { transactions: "array", ...transactionMembers },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} getRequestStatus (normalizeLegacyStatusResponse)`,
    operationId: "getRequestStatusV1",
    upstreamOperationId: "RequestControllerV1_getRequestStatus_v1",
    method: "GET",
    path: "/v1/request/{v1PaymentReference}",
    credential: "apiKey",
    status: 200,
    reads: { hasBeenPaid: "boolean", txHash: "string|null?", paymentReference: "string?" },
    equals: { hasBeenPaid: false },
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} stopRecurrence`,
    operationId: "stopRequestRecurrenceV1",
    upstreamOperationId: "RequestControllerV1_stopRecurrenceRequest_v1",
    method: "PATCH",
    path: "/v1/request/{v1PaymentReference}/stop-recurrence",
    credential: "apiKey",
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${requestsV1} sendPaymentIntent`,
    operationId: null,
    upstreamOperationId: "RequestControllerV1_sendPaymentIntent_v1",
    method: "POST",
    path: "/v1/request/{paymentIntentId}/send",
    credential: "apiKey",
    body: { signedPaymentIntent: { signature: "0x00", nonce: "1", deadline: "1" } },
    status: 404,
    reads: {},
    clientDeparts:
      "calls `POST /v1/request/{paymentIntentId}/send`, which Request API 0.31.0 no longer publishes (0.8.1 did); the current operation is `POST /v2/request/payment-intents/{paymentIntentId}`",
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} create`,
    operationId: "createPayout",
    upstreamOperationId: "PayoutV2Controller_payRequest_v2",
    method: "POST",
    path: "/v2/payouts",
    credential: "apiKey",
    body: { payee: "{payee}", amount: "12", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    status: 201,
    reads: { requestId: "string", transactions: "array" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} createBatch`,
    operationId: "createBatchPayout",
    upstreamOperationId: "PayoutV2Controller_payBatchRequest_v2",
    method: "POST",
    path: "/v2/payouts/batch",
    credential: "apiKey",
    body: {
      requests: [
        { payee: "{payee}", amount: "7", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
        { payee: "{feeAddress}", amount: "3", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
      ],
      payer: "{wallet}",
    },
    status: 201,
    reads: { ERC20ApprovalTransactions: "array", batchPaymentTransaction: "object" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} create (a recurrence)`,
    operationId: "createPayout",
    upstreamOperationId: "PayoutV2Controller_payRequest_v2",
    method: "POST",
    path: "/v2/payouts",
    credential: "apiKey",
    body: {
      payee: "{payee}",
      amount: "20",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 3, payer: "{subscriber}" },
    },
    status: 201,
    reads: { id: "string", recurringPaymentPermit: "object" },
    keep: { recurringPaymentId: "id", recurringPaymentPermit: "recurringPaymentPermit" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} getRecurringStatus`,
    operationId: "getRecurringPaymentStatus",
    upstreamOperationId: "PayoutV2Controller_getRecurringPaymentStatus_v2",
    method: "GET",
    path: "/v2/payouts/recurring/{recurringPaymentId}",
    credential: "apiKey",
    status: 200,
    reads: { status: "string" },
    equals: { status: "pending" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} submitRecurringSignature`,
    operationId: "submitRecurringPaymentSignature",
    upstreamOperationId: "PayoutV2Controller_submitRecurringPaymentSignature_v2",
    method: "POST",
    path: "/v2/payouts/recurring/{recurringPaymentId}",
    credential: "apiKey",
    body: { permitSignature: "{permitSignature}" },
    needs: ["signRecurringPermit"],
    status: 201,
    reads: {},
    equals: { status: "active" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${payoutsFacade} updateRecurring`,
    operationId: "updateRecurringPayment",
    upstreamOperationId: "PayoutV2Controller_updateRecurringPayment_v2",
    method: "PATCH",
    path: "/v2/payouts/recurring/{recurringPaymentId}",
    credential: "apiKey",
    body: { action: "cancel" },
    status: 200,
    reads: {},
    equals: { status: "cancelled" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${apiClientDomains}/pay/v1/pay.v1.facade.ts payRequest`,
    operationId: "createPayoutV1",
    upstreamOperationId: "PayV1Controller_payRequest_v1",
    method: "POST",
    path: "/v1/pay",
    credential: "apiKey",
    body: { payee: "{payee}", amount: "9", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    status: 201,
    reads: {},
  },
  ...payerCalls("v2", "lena-fischer-v2"),
  ...payerCalls("v1", "lena-fischer-v1"),
  {
    client: "request-network-api-client-ts",
    source: `${destinationsFacade} getSigningData`,
    operationId: "getPayeeDestinationSigningData",
    upstreamOperationId: "PayeeDestinationController_getSigningData_v2",
    method: "GET",
    path: "/v2/payee-destination/signing-data?walletAddress={destinationWallet}&action=add&tokenAddress={fau}&chainId=11155111",
    credential: "clientId",
    status: 200,
    reads: {},
    keep: { destinationSigningData: "$" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${destinationsFacade} create`,
    operationId: "createPayeeDestination",
    upstreamOperationId: "PayeeDestinationController_createPayeeDestination_v2",
    method: "POST",
    path: "/v2/payee-destination",
    credential: "clientId",
    body: { nonce: "{destinationNonce}", signature: "{destinationSignature}" },
    needs: ["signPayeeDestination"],
    status: 201,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${destinationsFacade} getActive`,
    operationId: "getActivePayeeDestination",
    upstreamOperationId: "PayeeDestinationController_getActivePayeeDestination_v2",
    method: "GET",
    path: "/v2/payee-destination?walletAddress={destinationWallet}",
    credential: "clientId",
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${destinationsFacade} getById`,
    operationId: "getPayeeDestination",
    upstreamOperationId: "PayeeDestinationController_getPayeeDestination_v2",
    method: "GET",
    path: "/v2/payee-destination/{destinationIdInPath}",
    credential: "clientId",
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${securePaymentsFacade} create`,
    operationId: "createSecurePayment",
    upstreamOperationId: "SecurePaymentController_createSecurePayment_v2",
    method: "POST",
    path: "/v2/secure-payments",
    credential: "apiKey",
    body: { requests: [{ destinationId: "{destinationId}", amount: "20" }] },
    status: 201,
    reads: { requestIds: "array", securePaymentUrl: "string", token: "string" },
    keep: { secureToken: "token", secureRequestId: "requestIds[0]" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${securePaymentsFacade} findByRequestId`,
    operationId: "findSecurePayment",
    upstreamOperationId: "SecurePaymentController_findSecurePayment_v2",
    method: "GET",
    path: "/v2/secure-payments?requestId={secureRequestId}",
    credential: "apiKey",
    status: 200,
    reads: {},
    equals: { token: "{secureToken}" },
  },
  {
    client: "request-network-api-client-ts",
    source: `${securePaymentsFacade} getByToken`,
    operationId: "checkSecurePaymentToken",
    upstreamOperationId: "SecurePaymentController_getSecurePaymentByToken_v2",
    method: "GET",
    path: "/v2/secure-payments/{secureToken}?wallet={wallet}",
    credential: "apiKey",
    status: 200,
    reads: {},
  },
  {
    client: "request-network-api-client-ts",
    source: `${destinationsFacade} deactivate`,
    operationId: "deactivatePayeeDestination",
    upstreamOperationId: "PayeeDestinationController_deactivatePayeeDestination_v2",
    method: "DELETE",
    path: "/v2/payee-destination/{destinationIdInPath}",
    credential: "clientId",
    body: { nonce: "{deactivationNonce}", signature: "{deactivationSignature}" },
    needs: ["signDestinationDeactivation"],
    status: 200,
    reads: {},
  },
];

const orchestratorsFacade = `${apiClientDomains}/orchestrators/orchestrators.facade.ts (through operations.facade.ts execute)`;

/** An orchestrator call of api-client-ts: every one but `create` takes the orchestrator's key. */
const orchestratorCall = (
  facadeMethod: string,
  call: Omit<ClientCall, "client" | "source" | "credential" | "reads"> &
    Partial<Pick<ClientCall, "reads" | "credential">>,
): ClientCall => ({
  client: "request-network-api-client-ts",
  source: `${orchestratorsFacade} ${facadeMethod}`,
  credential: "orchestratorKey",
  reads: {},
  ...call,
});

export const orchestratorCalls: ClientCall[] = [
  orchestratorCall("create", {
    operationId: "createOrchestrator",
    upstreamOperationId: "OrchestratorController_createOrchestrator_v2",
    method: "POST",
    path: "/v2/orchestrators",
    credential: "sessionBearer",
    needs: ["signIn"],
    body: { orchestratorName: "Harbour Payments", orchestratorContactEmail: "ops@harbour.example" },
    status: 201,
    reads: {
      rawKey: "string",
      "orchestrator.id": "string",
      "orchestrator.status": "string",
      "key.id": "string",
      "key.keyPrefix": "string",
    },
    equals: { "orchestrator.name": "Harbour Payments", "orchestrator.supportEmail": "ops@harbour.example" },
  }),
  orchestratorCall("clientIds.link", {
    operationId: "linkOrchestratorClientId",
    upstreamOperationId: "OrchestratorController_linkClientId_v2",
    method: "POST",
    path: "/v2/orchestrators/client-ids",
    needs: ["createClientIdToLink"],
    body: { clientId: "{linkedClientId}" },
    status: 201,
  }),
  orchestratorCall("clientIds.list", {
    operationId: "listOrchestratorClientIds",
    upstreamOperationId: "OrchestratorController_listLinkedClientIds_v2",
    method: "GET",
    path: "/v2/orchestrators/client-ids?page=1&limit=10",
    status: 200,
    equals: { total: 1 },
  }),
  orchestratorCall("clientIds.createLinkIntent", {
    operationId: "createClientIdLinkIntent",
    upstreamOperationId: "OrchestratorController_createLinkIntent_v2",
    method: "POST",
    path: "/v2/orchestrators/client-id-link-intents",
    body: { clientIdName: "Harbour Books storefront", domains: ["https://books.example.com"] },
    status: 201,
  }),
  orchestratorCall("fees.create", {
    operationId: "createOrchestratorFeeConfig",
    upstreamOperationId: "OrchestratorController_createFeeConfig_v2",
    method: "POST",
    path: "/v2/orchestrators/fee-configs",
    body: {
      flow: "incoming",
      feeBearer: "recipient",
      bps: 75,
      usdCap: "15",
      evmRecipientAddress: "{feeAddress}",
    },
    status: 201,
    keep: { feeConfigId: "id" },
  }),
  orchestratorCall("fees.list", {
    operationId: "listOrchestratorFeeConfigs",
    upstreamOperationId: "OrchestratorController_listFeeConfigs_v2",
    method: "GET",
    path: "/v2/orchestrators/fee-configs",
    status: 200,
  }),
  orchestratorCall("fees.update", {
    operationId: "updateOrchestratorFeeConfig",
    upstreamOperationId: "OrchestratorController_updateFeeConfig_v2",
    method: "PATCH",
    path: "/v2/orchestrators/fee-configs/{feeConfigId}",
    body: { bps: 90 },
    status: 200,
    equals: { bps: 90 },
  }),
  orchestratorCall("fees.disable", {
    operationId: "disableOrchestratorFeeConfig",
    upstreamOperationId: "OrchestratorController_disableFeeConfig_v2",
    method: "DELETE",
    path: "/v2/orchestrators/fee-configs/{feeConfigId}",
    status: 200,
    equals: { status: "disabled" },
  }),
  orchestratorCall("branding.create", {
    operationId: "createOrchestratorBranding",
    upstreamOperationId: "OrchestratorController_createBranding_v2",
    method: "POST",
    path: "/v2/orchestrators/branding",
    body: { primaryActionColor: "#0f766e", pageBackgroundColor: "#f8fafc" },
    status: 201,
  }),
  orchestratorCall("branding.get", {
    operationId: "getOrchestratorBranding",
    upstreamOperationId: "OrchestratorController_getBranding_v2",
    method: "GET",
    path: "/v2/orchestrators/branding",
    status: 200,
    equals: { primaryActionColor: "#0f766e" },
  }),
  orchestratorCall("branding.update", {
    operationId: "updateOrchestratorBranding",
    upstreamOperationId: "OrchestratorController_updateBranding_v2",
    method: "PATCH",
    path: "/v2/orchestrators/branding",
    body: { primaryActionColor: "#b45309" },
    status: 200,
    equals: { primaryActionColor: "#b45309" },
  }),
  orchestratorCall("branding.remove", {
    operationId: "removeOrchestratorBranding",
    upstreamOperationId: "OrchestratorController_removeBranding_v2",
    method: "DELETE",
    path: "/v2/orchestrators/branding",
    status: 200,
    equals: { removed: true },
  }),
  orchestratorCall("webhooks.create", {
    operationId: "createOrchestratorWebhook",
    upstreamOperationId: "OrchestratorController_createWebhook_v2",
    method: "POST",
    path: "/v2/orchestrators/webhooks",
    body: { url: "{hookUrl}" },
    status: 201,
    keep: { orchestratorWebhookId: "webhook.id" },
  }),
  orchestratorCall("webhooks.list", {
    operationId: "listOrchestratorWebhooks",
    upstreamOperationId: "OrchestratorController_listWebhooks_v2",
    method: "GET",
    path: "/v2/orchestrators/webhooks",
    status: 200,
  }),
  orchestratorCall("webhooks.test", {
    operationId: "sendOrchestratorWebhookTest",
    upstreamOperationId: "OrchestratorController_testWebhook_v2",
    method: "POST",
    path: "/v2/orchestrators/webhooks/test",
    body: { eventType: "client_id.linked" },
    status: 200,
    equals: { sent: 1, failed: 0 },
  }),
  orchestratorCall("webhooks.deactivate", {
    operationId: "deactivateOrchestratorWebhook",
    upstreamOperationId: "OrchestratorController_deactivateWebhook_v2",
    method: "DELETE",
    path: "/v2/orchestrators/webhooks/{orchestratorWebhookId}",
    status: 200,
    equals: { "webhook.isActive": false },
  }),
  orchestratorCall("webhooks.activate", {
    operationId: "activateOrchestratorWebhook",
    upstreamOperationId: "OrchestratorController_activateWebhook_v2",
    method: "PATCH",
    path: "/v2/orchestrators/webhooks/{orchestratorWebhookId}",
    status: 200,
    equals: { "webhook.isActive": true },
  }),
  orchestratorCall("clientIds.unlink", {
    operationId: "unlinkOrchestratorClientId",
    upstreamOperationId: "OrchestratorController_unlinkClientId_v2",
    method: "DELETE",
    path: "/v2/orchestrators/client-ids/{linkedClientId}",
    status: 200,
  }),
];

export const integrationDemoCalls: ClientCall[] = [
  {
    client: "integration-demo",
    source: "rn-test-backend/src/index.ts POST /payments",
    operationId: "createPayout",
    upstreamOperationId: "PayoutV2Controller_payRequest_v2",
    method: "POST",
    path: "/v2/payouts",
    credential: "apiKeyCapitalised",
    body: {
      payee: "{payee}",
      amount: "0.02",
      invoiceCurrency: "ETH-sepolia-sepolia",
      paymentCurrency: "ETH-sepolia-sepolia",
    },
    status: 201,
    reads: { requestId: "string", transactions: "array", metadata: "object" },
  },
];

export const realClientCalls: ClientCall[] = [
  ...easyInvoiceCalls,
  ...apiClientTsCalls,
  ...orchestratorCalls,
  ...integrationDemoCalls,
];
