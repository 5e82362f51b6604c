/**
 * Everything the given service spec (shared/service-spec.md) states about the API, written down
 * as checks. `checklist.test.ts` holds the OpenAPI document against it. Value checks are
 * behavioural: a field "exactly 3 chars" must accept a 3-character value and reject 2 and 4.
 */

export interface ValueCheck {
  /** Name of a parameter, or a dotted path into a body (`requests.payee` walks into array items). */
  name: string;
  /** Required flag stated by the given spec; omitted where it says "not shown". */
  required?: boolean;
  accepts: unknown[];
  rejects: unknown[];
}

export interface OperationCheck {
  method: "get" | "post" | "patch";
  path: string;
  /**
   * `apiKey`: x-api-key required. `apiKeyOrClientId`: x-api-key, or x-client-id with Origin.
   * `orOrchestratorPair`: those, or x-orchestrator-key with x-client-id and Origin.
   */
  auth: "apiKey" | "apiKeyOrClientId" | "orOrchestratorPair";
  successStatus: string;
  /** Statuses the given spec names for this operation besides the success. */
  statedStatuses?: string[];
  pathParams?: ValueCheck[];
  queryParams?: ValueCheck[];
  /** A complete valid body; each required field is removed from it in turn, and an unknown one added. */
  validBody?: Record<string, unknown>;
  body?: ValueCheck[];
  /** Fields of the success body, as dotted paths (array items and oneOf branches are walked). */
  responseFields: string[];
}

const address = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const requestId = "01e273ecc29d4b526df3a0f1f05ffc59372af8752c2b678096e49ac270416a7cdb";
const item = { payee: address, amount: "125.00", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };

const text = (name: string, required = true): ValueCheck => ({
  name,
  required,
  accepts: ["x", "Some text"],
  rejects: required ? ["", 42, null] : [42, null],
});
const optionalText = (name: string): ValueCheck => ({ name, required: false, accepts: ["x"], rejects: [42] });
const isoDate: Omit<ValueCheck, "name"> = {
  required: true,
  accepts: ["1988-04-12"],
  rejects: ["12/04/1988", "1988-4-12", "19880412", ""],
};
const twoLetterCountry: Omit<ValueCheck, "name"> = {
  required: true,
  accepts: ["DE"],
  rejects: ["D", "DEU", ""],
};
const beneficiaryType: ValueCheck = {
  name: "beneficiaryType",
  required: true,
  accepts: ["individual", "business"],
  rejects: ["company", ""],
};
const feePercentageQuery: ValueCheck = {
  name: "feePercentage",
  required: false,
  accepts: ["2.5", "0"],
  rejects: ["abc", "-1"],
};
const feeAddressQuery: ValueCheck = {
  name: "feeAddress",
  required: false,
  accepts: [address],
  rejects: ["0x123", "vitalik"],
};
const amountQuery: ValueCheck = {
  name: "amount",
  required: false,
  accepts: ["125.00", "3"],
  rejects: ["12,50", "-3"],
};

const transactionFields = ["data", "to", "value"];
const currencyFields = ["id", "name", "symbol", "decimals", "address", "network", "type", "hash", "chainId"];

export const operations: OperationCheck[] = [
  {
    method: "post",
    path: "/v1/payer/{clientUserId}/payment-details",
    auth: "apiKey",
    successStatus: "201",
    pathParams: [{ name: "clientUserId", required: true, accepts: ["user-8841"], rejects: [] }],
    validBody: {
      bankName: "Deutsche Kreditbank",
      accountName: "Mara Lindqvist",
      beneficiaryType: "individual",
      currency: "EUR",
      addressLine1: "Torstrasse 42",
      city: "Berlin",
      country: "DE",
      dateOfBirth: "1988-04-12",
      postalCode: "10119",
      iban: "DE89370400440532013000",
      rails: "local",
    },
    body: [
      text("bankName"),
      text("accountName"),
      beneficiaryType,
      { name: "currency", required: true, accepts: ["EUR", "USD"], rejects: ["EU", "EURO", ""] },
      text("addressLine1"),
      text("city"),
      { name: "country", ...twoLetterCountry },
      { name: "dateOfBirth", ...isoDate },
      text("postalCode"),
      optionalText("accountNumber"),
      optionalText("routingNumber"),
      optionalText("addressLine2"),
      optionalText("state"),
      { name: "rails", required: false, accepts: ["local", "swift", "wire"], rejects: ["sepa", ""] },
      optionalText("sortCode"),
      optionalText("iban"),
      optionalText("swiftBic"),
      optionalText("documentNumber"),
      optionalText("documentType"),
      { name: "accountType", required: false, accepts: ["checking", "savings"], rejects: ["current"] },
      optionalText("ribNumber"),
      optionalText("bsbNumber"),
      optionalText("ncc"),
      optionalText("branchCode"),
      optionalText("bankCode"),
      optionalText("ifsc"),
    ],
    responseFields: [
      "payment_detail",
      "payment_detail.id",
      "payment_detail.clientUserId",
      "payment_detail.bankName",
      "payment_detail.accountName",
      "payment_detail.currency",
      "payment_detail.beneficiaryType",
    ],
  },
  {
    method: "post",
    path: "/v2/payer",
    auth: "apiKey",
    successStatus: "200",
    validBody: {
      clientUserId: "user-8841",
      email: "mara.lindqvist@example.com",
      firstName: "Mara",
      lastName: "Lindqvist",
      beneficiaryType: "individual",
      dateOfBirth: "1988-04-12",
      addressLine1: "Torstrasse 42",
      city: "Berlin",
      state: "BE",
      postcode: "10119",
      country: "DE",
      nationality: "SE",
      phone: "+4915123456789",
      ssn: "123-45-6789",
    },
    body: [
      text("clientUserId"),
      { name: "email", required: true, accepts: ["mara@example.com"], rejects: ["mara", "mara@", ""] },
      text("firstName"),
      text("lastName"),
      beneficiaryType,
      { name: "dateOfBirth", ...isoDate },
      text("addressLine1"),
      text("city"),
      text("state"),
      text("postcode"),
      { name: "country", ...twoLetterCountry },
      { name: "nationality", ...twoLetterCountry },
      {
        name: "phone",
        required: true,
        accepts: ["+4915123456789", "4915123456789"],
        rejects: ["+0151234", "0049 151 234", "+1234567890123456", ""],
      },
      text("ssn"),
      optionalText("companyName"),
      optionalText("addressLine2"),
      optionalText("sourceOfFunds"),
      optionalText("businessActivity"),
    ],
    responseFields: [
      "status",
      "status.agreementStatus",
      "status.kycStatus",
      "agreementUrl",
      "kycUrl",
      "userId",
    ],
  },
  {
    method: "post",
    path: "/v2/payouts/batch",
    auth: "apiKeyOrClientId",
    successStatus: "201",
    validBody: { requests: [item], payer: address, feePercentage: "2.5", feeAddress: address },
    body: [
      {
        name: "requests",
        required: false,
        accepts: [[item]],
        rejects: [[], [{ ...item, payee: "bob" }], "x"],
      },
      { name: "requests.payee", accepts: [address], rejects: ["0x12"] },
      { name: "requests.amount", accepts: ["125.00"], rejects: ["12,5", 125] },
      { name: "requests.invoiceCurrency", accepts: ["USD", "USDC-base"], rejects: ["usd dollars", ""] },
      {
        name: "requests.paymentCurrency",
        accepts: ["USDC-base", "ETH-sepolia-sepolia"],
        rejects: ["USDC", ""],
      },
      { name: "requestIds", required: false, accepts: [[requestId]], rejects: [[], ["not-an-id"]] },
      { name: "payer", required: false, accepts: [address], rejects: ["0xabc"] },
      { name: "feePercentage", required: false, accepts: ["2.5", "0"], rejects: ["2,5", 2.5] },
      { name: "feeAddress", required: false, accepts: [address], rejects: ["0xabc"] },
    ],
    responseFields: [
      "ERC20ApprovalTransactions",
      ...transactionFields.map((field) => `ERC20ApprovalTransactions.${field}`),
      "ERC20BatchPaymentTransaction",
      "ETHBatchPaymentTransaction",
      "batchPaymentTransaction",
    ],
  },
  {
    method: "get",
    path: "/v1/currencies/{currencyId}/conversion-routes",
    auth: "apiKeyOrClientId",
    successStatus: "200",
    pathParams: [{ name: "currencyId", required: true, accepts: ["USDC-base"], rejects: [] }],
    queryParams: [
      { name: "network", required: false, accepts: ["base"], rejects: [] },
      { name: "networks", required: false, accepts: ["base,optimism", "mainnet"], rejects: [] },
    ],
    responseFields: [
      "currencyId",
      "network",
      "conversionRoutes",
      ...currencyFields.map((field) => `conversionRoutes.${field}`),
    ],
  },
  {
    method: "get",
    path: "/v2/client-ids/{id}",
    auth: "apiKey",
    successStatus: "200",
    pathParams: [{ name: "id", required: true, accepts: ["cid_7Hq2"], rejects: [] }],
    responseFields: [
      "id",
      "clientId",
      "label",
      "allowedDomains",
      "feePercentage",
      "feeAddress",
      "operatorWalletAddress",
      "defaultPreApprovalExpiry",
      "defaultAuthorizationExpiry",
      "status",
      "createdAt",
      "updatedAt",
      "lastUsedAt",
    ],
  },
  {
    method: "get",
    path: "/v1/currencies",
    auth: "apiKeyOrClientId",
    successStatus: "200",
    queryParams: [
      { name: "network", required: false, accepts: ["base"], rejects: [] },
      { name: "symbol", required: false, accepts: ["USDC"], rejects: [] },
      { name: "firstOnly", required: false, accepts: ["true", "false"], rejects: [] },
      { name: "id", required: false, accepts: ["USDC-base"], rejects: [] },
    ],
    responseFields: currencyFields,
  },
  {
    method: "get",
    path: "/v1/request/{paymentReference}/routes",
    auth: "apiKey",
    successStatus: "200",
    pathParams: [{ name: "paymentReference", required: true, accepts: ["0xb3581f0b0f74cc61"], rejects: [] }],
    queryParams: [
      { name: "wallet", required: true, accepts: [address], rejects: ["0x12"] },
      amountQuery,
      feePercentageQuery,
      feeAddressQuery,
    ],
    responseFields: [
      "routes",
      "routes.id",
      "routes.fee",
      "routes.speed",
      "routes.price_impact",
      "routes.chain",
      "routes.token",
    ],
  },
  {
    method: "patch",
    path: "/v2/payouts/recurring/{id}",
    auth: "apiKeyOrClientId",
    successStatus: "200",
    pathParams: [{ name: "id", required: true, accepts: ["01JXYJKCAHGFTDR15F2D072ESG"], rejects: [] }],
    validBody: { action: "cancel" },
    body: [{ name: "action", required: true, accepts: ["cancel", "unpause"], rejects: ["pause", "", 1] }],
    responseFields: [
      "id",
      "status",
      "transactions",
      ...transactionFields.map((field) => `transactions.${field}`),
      "metadata.remainingPayments",
      "metadata.remainingAmount",
      "metadata.processedPayments",
      "metadata.totalPayments",
    ],
  },
  {
    method: "get",
    path: "/v2/request/{requestId}/pay",
    auth: "apiKeyOrClientId",
    successStatus: "200",
    pathParams: [{ name: "requestId", required: true, accepts: [requestId], rejects: [] }],
    queryParams: [
      { name: "wallet", required: false, accepts: [address], rejects: ["0x12"] },
      {
        name: "chain",
        required: false,
        accepts: ["BASE", "OPTIMISM", "ARBITRUM", "ETHEREUM"],
        rejects: ["SOLANA", "base"],
      },
      { name: "token", required: false, accepts: ["USDC", "USDT"], rejects: ["DAI"] },
      amountQuery,
      { name: "clientUserId", required: false, accepts: ["user-8841"], rejects: [] },
      { name: "paymentDetailsId", required: false, accepts: ["pd_4f1c"], rejects: [] },
      feePercentageQuery,
      feeAddressQuery,
    ],
    responseFields: [
      "transactions",
      ...transactionFields.map((field) => `transactions.${field}`),
      "metadata",
      "metadata.stepsRequired",
      "metadata.needsApproval",
      "metadata.approvalTransactionIndex",
      "metadata.hasEnoughBalance",
      "metadata.hasEnoughGas",
    ],
  },
  {
    method: "post",
    path: "/v2/secure-payments",
    auth: "orOrchestratorPair",
    successStatus: "201",
    validBody: { requests: [item] },
    body: [{ name: "requests", accepts: [[item]], rejects: [[], "x", [{ ...item, amount: "ten" }]] }],
    responseFields: ["requestIds", "securePaymentUrl", "token"],
  },
  {
    method: "get",
    path: "/v2/secure-payments/{token}",
    auth: "apiKeyOrClientId",
    successStatus: "200",
    statedStatuses: ["403", "404", "409"],
    pathParams: [{ name: "token", required: true, accepts: ["01JY3Q8Z6W2N4B7C9D5E1F0G8H"], rejects: [] }],
    responseFields: [],
  },
];

/**
 * Operations the given spec does not show but the service's published contract (version 0.13.0,
 * and 0.31.0 for the operations it added) has, and that payreq serves too. Their facts come from that contract, not from the given spec.
 */
export const publishedOperations: { method: "get" | "post" | "patch" | "put" | "delete"; path: string }[] = [
  { method: "post", path: "/v2/request" },
  { method: "get", path: "/v2/request" },
  { method: "post", path: "/v1/request" },
  { method: "get", path: "/v1/request/{paymentReference}" },
  { method: "get", path: "/v1/request/{paymentReference}/pay" },
  { method: "patch", path: "/v1/request/{paymentReference}/stop-recurrence" },
  { method: "post", path: "/v1/pay" },
  { method: "post", path: "/v1/payer" },
  { method: "get", path: "/v1/payer/{clientUserId}" },
  { method: "patch", path: "/v1/payer/{clientUserId}" },
  { method: "get", path: "/v1/payer/{clientUserId}/payment-details" },
  { method: "get", path: "/v2/request/{requestId}" },
  { method: "patch", path: "/v2/request/{requestId}" },
  { method: "get", path: "/v2/request/{requestId}/routes" },
  { method: "post", path: "/v2/request/payment-intents/{paymentIntentId}" },
  { method: "post", path: "/v2/payouts" },
  { method: "get", path: "/v2/payouts/recurring/{id}" },
  { method: "post", path: "/v2/payouts/recurring/{id}" },
  { method: "get", path: "/v2/payments" },
  { method: "get", path: "/v2/currencies" },
  { method: "get", path: "/v2/currencies/{currencyId}/conversion-routes" },
  { method: "get", path: "/v2/payer/{clientUserId}" },
  { method: "patch", path: "/v2/payer/{clientUserId}" },
  { method: "post", path: "/v2/payer/{clientUserId}/payment-details" },
  { method: "get", path: "/v2/payer/{clientUserId}/payment-details" },
  { method: "post", path: "/v2/client-ids" },
  { method: "get", path: "/v2/client-ids" },
  { method: "put", path: "/v2/client-ids/{id}" },
  { method: "delete", path: "/v2/client-ids/{id}" },
  { method: "get", path: "/v2/secure-payments" },
  { method: "get", path: "/v2/secure-payments/{token}/pay" },
  { method: "get", path: "/v2/payee-destination/signing-data" },
  { method: "post", path: "/v2/payee-destination" },
  { method: "get", path: "/v2/payee-destination" },
  { method: "get", path: "/v2/payee-destination/{destinationId}" },
  { method: "delete", path: "/v2/payee-destination/{destinationId}" },
  { method: "post", path: "/v2/secure-payments/payouts" },
  { method: "post", path: "/v2/secure-payments/batch-payouts" },
  { method: "post", path: "/v2/secure-payments/fees/preview" },
  { method: "post", path: "/v2/secure-payments/{token}/intent" },
  { method: "post", path: "/v2/secure-payments/{token}/refresh-step-transaction" },
  { method: "post", path: "/v2/secure-payments/multicall-payouts" },
  { method: "get", path: "/v2/secure-payments/multicall-payouts/{token}" },
  // Published in 0.31.0: the orchestrator operations.
  { method: "post", path: "/v2/orchestrators" },
  { method: "get", path: "/v2/orchestrators/client-ids" },
  { method: "post", path: "/v2/orchestrators/client-ids" },
  { method: "delete", path: "/v2/orchestrators/client-ids/{clientId}" },
  { method: "post", path: "/v2/orchestrators/client-id-link-intents" },
  { method: "get", path: "/v2/orchestrators/fee-configs" },
  { method: "post", path: "/v2/orchestrators/fee-configs" },
  { method: "patch", path: "/v2/orchestrators/fee-configs/{id}" },
  { method: "delete", path: "/v2/orchestrators/fee-configs/{id}" },
  { method: "get", path: "/v2/orchestrators/branding" },
  { method: "post", path: "/v2/orchestrators/branding" },
  { method: "patch", path: "/v2/orchestrators/branding" },
  { method: "delete", path: "/v2/orchestrators/branding" },
  { method: "get", path: "/v2/orchestrators/webhooks" },
  { method: "post", path: "/v2/orchestrators/webhooks" },
  { method: "post", path: "/v2/orchestrators/webhooks/test" },
  { method: "patch", path: "/v2/orchestrators/webhooks/{id}" },
  { method: "delete", path: "/v2/orchestrators/webhooks/{id}" },
  // Published in 0.31.0: the newer secure payment operations.
  { method: "post", path: "/v2/secure-payments/{token}/tron/broadcast" },
  { method: "post", path: "/v2/secure-payments/{token}/events" },
  { method: "post", path: "/v2/secure-payments/{token}/multicall-intent" },
  // Published in 0.31.0.
  { method: "get", path: "/v2/health" },
  { method: "get", path: "/v2/transaction-history" },
  { method: "get", path: "/v2/dashboard/requests/export" },
  { method: "post", path: "/v2/journey" },
  { method: "get", path: "/v2/journey/{journeyId}" },
  { method: "post", path: "/v2/journey/{journeyId}" },
  { method: "post", path: "/v2/commerce-payments/authorize/calldata" },
  { method: "post", path: "/v2/commerce-payments/{requestId}/authorize" },
  { method: "post", path: "/v2/commerce-payments/{requestId}/capture" },
  { method: "post", path: "/v2/commerce-payments/{requestId}/capture/calldata" },
  { method: "post", path: "/v2/commerce-payments/{requestId}/void" },
  { method: "post", path: "/v2/commerce-payments/{requestId}/void/calldata" },
  { method: "get", path: "/v2/commerce-payments/{requestId}/status" },
  // The Auth API (auth.request.network), served on the same origin.
  { method: "get", path: "/v1/health" },
  { method: "post", path: "/v1/auth/register" },
  { method: "post", path: "/v1/auth/login" },
  { method: "post", path: "/v1/auth/wallet/challenge" },
  { method: "post", path: "/v1/auth/wallet/verify" },
  { method: "post", path: "/v1/auth/logout" },
  { method: "post", path: "/v1/webhook" },
  { method: "get", path: "/v1/webhook" },
  { method: "put", path: "/v1/webhook/{webhookId}" },
  { method: "delete", path: "/v1/webhook/{webhookId}" },
  { method: "post", path: "/v1/webhook/test" },
  { method: "get", path: "/v1/client-ids" },
  { method: "post", path: "/v1/client-ids" },
  { method: "get", path: "/v1/client-ids/{id}" },
  { method: "put", path: "/v1/client-ids/{id}" },
  { method: "delete", path: "/v1/client-ids/{id}" },
  { method: "get", path: "/v1/payee-destination" },
  { method: "post", path: "/v1/payee-destination" },
  { method: "put", path: "/v1/payee-destination" },
  { method: "patch", path: "/v1/payee-destination/deactivate" },
  { method: "get", path: "/v1/payee-destination/lookup" },
  { method: "get", path: "/v1/payee-destination/payout-lookup" },
  { method: "patch", path: "/v1/payee-destination/wallet-change/cancel" },
  { method: "get", path: "/v1/client-id-links/intents/{token}" },
  { method: "post", path: "/v1/client-id-links/intents/{token}" },
  { method: "put", path: "/v1/client-id-links/{clientIdId}/kyt" },
];

/** Transaction.value in the three forms the service sends. */

export const transactionValueForms = {
  accepts: [0, "0x0", "0x2386f26fc10000", { type: "BigNumber", hex: "0x2386f26fc10000" }],
  rejects: ["ten", -1, { hex: "0x1" }],
};

export const webhookEvents = ["payment.confirmed", "payment.partial", "payment.failed"];
export const webhookSignatureHeader = "x-request-network-signature";

/** Numbers the given spec states as limits, checked against the schemas. */
export const limits = {
  /** Items we allow in `requests` and `requestIds` (the given spec says "not shown"; we chose 100). */
  maxBatchItems: 100,
};
