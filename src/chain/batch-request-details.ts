import type { Address } from "viem";

/** MetaDetail.paymentNetworkId values of BatchConversionPayments.batchPayments. */
export const batchPaymentNetworkIds = {
  /** Every request pays the same token (batchERC20Payments). */
  singleErc20: 1n,
  /** Requests pay several tokens (batchMultiERC20Payments). */
  multiErc20: 2n,
  /** Native coin through the EthereumFeeProxy (batchNativePayments). */
  native: 3n,
} as const;

/** One RequestDetail of a `batchPayments` call, as the builder encodes it and the page decodes it. */
export interface BatchRequestDetail {
  recipient: Address;
  requestAmount: bigint;
  /** The ERC-20 token as the only element; empty for native payments. */
  path: readonly Address[];
  paymentReference: `0x${string}`;
  feeAmount: bigint;
  maxToSpend: bigint;
  maxRateTimespan: bigint;
}
