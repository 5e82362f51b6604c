export {
  batchConversionPaymentsAbi,
  erc20ApproveAbi,
  erc20FeeProxyAbi,
  ethereumFeeProxyAbi,
} from "./abis.ts";
export {
  computeFeeAmount,
  isZeroDecimal,
  parseDecimal,
  parseDecimalAmount,
  type ScaledDecimal,
} from "./amounts.ts";
export { type BuiltTransaction, buildAllowanceReset, buildApproval } from "./approval.ts";
export { type BatchRequestDetail, batchPaymentNetworkIds } from "./batch-request-details.ts";
export {
  type BatchPaymentInput,
  type BatchPaymentItem,
  type BatchPaymentTransactions,
  buildBatchPaymentTransactions,
} from "./build-batch-payment.ts";
export { buildPaymentTransactions, type PaymentInput, type PaymentTransactions } from "./build-payment.ts";
export {
  getOfficialContracts,
  type OfficialContracts,
  type PaymentContracts,
  resolveContracts,
} from "./contracts.ts";
export { ChainInputError, type ChainInputErrorCode } from "./errors.ts";
export { normalizeAddress, normalizePaymentReference, requireSameNetwork } from "./inputs.ts";
export { chainIds, isNetworkName, type NetworkName, networkNames, networkOfChainId } from "./networks.ts";
export {
  computeDestinationChecksum,
  formatBinaryInteropAddress,
  formatPayeeAddress,
  formatPayeeDestinationId,
  type PayeeDestination,
  parsePayeeDestinationId,
} from "./payee-destination.ts";
export { computePaymentReference, generateSalt, type PaymentReference } from "./payment-reference.ts";
export {
  buildSchedulePermit,
  getRecurringPaymentProxy,
  type SchedulePermit,
  type SchedulePermitInput,
  schedulePermitFields,
} from "./recurring-payment-proxy.ts";
export {
  computeNativeCurrencyHash,
  findToken,
  findTokenByAddress,
  listTokens,
  type TokenRecord,
  tokenTable,
} from "./tokens.ts";
