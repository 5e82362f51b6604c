import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";

// Request Network's ERC20CommerceEscrowWrapper 0.1.0 (@requestnetwork/smart-contracts,
// src/contracts/ERC20CommerceEscrowWrapper.sol): it stands between the payer and Base's
// Commerce Payments AuthCaptureEscrow, as depositor, operator and receiver, and keys each
// payment by its 8-byte Request Network payment reference. Only the three calls payreq builds.

const authParamsComponents = [
  { name: "paymentReference", type: "bytes8" },
  { name: "payer", type: "address" },
  { name: "merchant", type: "address" },
  { name: "operator", type: "address" },
  { name: "token", type: "address" },
  { name: "amount", type: "uint256" },
  { name: "maxAmount", type: "uint256" },
  { name: "preApprovalExpiry", type: "uint256" },
  { name: "authorizationExpiry", type: "uint256" },
  { name: "refundExpiry", type: "uint256" },
  { name: "tokenCollector", type: "address" },
  { name: "collectorData", type: "bytes" },
] as const;

export const commerceEscrowWrapperAbi = [
  {
    name: "authorizePayment",
    type: "function",
    stateMutability: "nonpayable",
    inputs: [{ name: "params", type: "tuple", components: authParamsComponents }],
    outputs: [],
  },
  {
    name: "capturePayment",
    type: "function",
    stateMutability: "nonpayable",
    inputs: [
      { name: "paymentReference", type: "bytes8" },
      { name: "captureAmount", type: "uint256" },
      { name: "feeBps", type: "uint16" },
      { name: "feeReceiver", type: "address" },
    ],
    outputs: [],
  },
  {
    name: "voidPayment",
    type: "function",
    stateMutability: "nonpayable",
    inputs: [{ name: "paymentReference", type: "bytes8" }],
    outputs: [],
  },
] as const;

/**
 * The wrapper's published deployments (the package's artifact, version 0.1.0). No other network
 * has one: payreq builds commerce calldata for these only.
 */
export const commerceEscrowWrapperAddresses: Readonly<Record<string, Address>> = {
  base: "0x9A73b3774183d07d4a2b585B04982F2Ec672B03b",
  sepolia: "0xc9b2eCBc2bfb38908f0Ee59729875959A09E6Ea5",
};

/**
 * Base's PreApprovalPaymentCollector (base/commerce-payments, deployed on Base and Base Sepolia):
 * the escrow pulls the payer's tokens through it once the payer has pre-approved the payment.
 * No collector address is published for Ethereum Sepolia, so payreq builds authorizations on Base.
 */
export const preApprovalPaymentCollectorAddresses: Readonly<Record<string, Address>> = {
  base: "0x1b77ABd71FCD21fbe2398AE821Aa27D1E6B94bC6",
};

/** What the wrapper's `authorizePayment` takes: the payment, its parties and its deadlines. */
export interface CommerceAuthorization {
  paymentReference: Hex;
  payer: Address;
  merchant: Address;
  operator: Address;
  token: Address;
  amount: bigint;
  maxAmount: bigint;
  /** Unix seconds: until when the payer's pre-approval may be used. */
  preApprovalExpiry: bigint;
  /** Unix seconds: until when the operator may capture; the payer may reclaim after it. */
  authorizationExpiry: bigint;
  /** Unix seconds: until when a captured payment may be refunded. */
  refundExpiry: bigint;
  tokenCollector: Address;
  collectorData: Hex;
}

export function encodeCommerceAuthorize(params: CommerceAuthorization): Hex {
  return encodeFunctionData({
    abi: commerceEscrowWrapperAbi,
    functionName: "authorizePayment",
    args: [{ ...params, merchant: getAddress(params.merchant), payer: getAddress(params.payer) }],
  });
}

export function encodeCommerceCapture(
  paymentReference: Hex,
  captureAmount: bigint,
  feeBps: number,
  feeReceiver: Address,
): Hex {
  return encodeFunctionData({
    abi: commerceEscrowWrapperAbi,
    functionName: "capturePayment",
    args: [paymentReference, captureAmount, feeBps, getAddress(feeReceiver)],
  });
}

export function encodeCommerceVoid(paymentReference: Hex): Hex {
  return encodeFunctionData({
    abi: commerceEscrowWrapperAbi,
    functionName: "voidPayment",
    args: [paymentReference],
  });
}
