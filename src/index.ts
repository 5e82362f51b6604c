// Public API: the typed client, its errors and normalisers, and the spec's types.
export type {
  BaseUnitAmount,
  BatchPayoutRequest,
  BigNumberValue,
  ClientId,
  ClientIdStatus,
  ConversionRoutes,
  CreatePaymentDetailsRequest,
  CreatePayoutRequest,
  CreateRequestRequest,
  CreateSecurePaymentRequest,
  CrossChainPayCalldata,
  Currency,
  CurrencyId,
  CurrencyType,
  components,
  DecimalAmount,
  EvmAddress,
  FeePercentage,
  HexData,
  InvoiceCurrency,
  NetworkName,
  operations,
  PayCalldata,
  PayCalldataMetadata,
  PayerComplianceStatus,
  PaymentDetailResponse,
  PaymentIntentSubmission,
  PaymentReference,
  PaymentRequestItem,
  PaymentRoute,
  PaymentRoutes,
  PaymentSearchItem,
  PaymentSearchResults,
  PayoutCalldata,
  Problem,
  paths,
  RecurringPayment,
  RecurringPaymentAction,
  RecurringPaymentPermit,
  RecurringPaymentProgress,
  RecurringPaymentStatus,
  RecurringPayout,
  RegisterPayerRequest,
  RequestCreated,
  RequestDetails,
  RequestId,
  SecurePayment,
  SecurePaymentBatchDetails,
  SecurePaymentDetails,
  SecurePaymentSingleDetails,
  SecurePaymentStatus,
  Transaction,
  TransactionValue,
  TxHash,
  Ulid,
  UpdateRecurringPaymentRequest,
  ValidationIssue,
  WebhookFee,
  webhooks,
} from "../generated/schema.d.ts";
export { ApiError, type FetchResult, type SuccessData, toApiError, unwrap } from "./client/api-error.ts";
export type { ApiKeyCredentials, ClientIdCredentials } from "./client/auth-middleware.ts";
export { type BatchPayout, type NormalisedBatchPayout, normaliseBatchPayout } from "./client/batch-payout.ts";
export { createPayreqClient, type PayreqClient, type PayreqClientOptions } from "./client/create-client.ts";
export { InvalidValueError, PayreqError, type PayreqErrorParameters } from "./client/payreq-error.ts";
export { type FetchLike, type RetryOptions, withRetries } from "./client/retrying-fetch.ts";
export { transactionValueToBigInt } from "./client/transaction-value.ts";
export { readTypedData, type SignableTypedData, type TypedDataMember } from "./client/typed-data.ts";
export {
  normaliseWebhookEvent,
  type PaymentConfirmedEvent,
  type PaymentFailedEvent,
  type PaymentPartialEvent,
  type WebhookEvent,
  type WebhookPayload,
  webhookEventNames,
} from "./client/webhook-event.ts";

// Receiving webhooks: signatures, the receiver and its middleware, dedupe and the test helper.
export * from "./webhooks/index.ts";
