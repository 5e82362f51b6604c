import { type Address, keccak256, maxUint256, stringToHex } from "viem";
import { commerceEscrowWrapperAddresses } from "../../../chain/commerce-escrow.ts";
import { invalidField, invalidState } from "../../problems.ts";
import type { CommercePaymentEventRecord, CommercePaymentRecord } from "../../store/records.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * The operator the sandbox names for every commerce payment: the first account of the public
 * test mnemonic (`test test ... junk`), so that calldata can be sent from it on a local chain.
 * The service's operator is its own smart account.
 */
export const sandboxOperator: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** The escrow wrapper of a network the sandbox builds commerce payments on. */
export function escrowWrapperOf(network: string): Address {
  const address = commerceEscrowWrapperAddresses[network];
  if (!address) throw new Error(`no commerce escrow wrapper on ${network}`);
  return address;
}

/** A transaction hash the sandbox makes up for an escrow action: a hash of no chain, the same for the same step. */
export function sandboxTransactionHash(payment: CommercePaymentRecord, action: string): `0x${string}` {
  return keccak256(stringToHex(`payreq sandbox ${payment.requestId} ${action} ${payment.events.length}`));
}

/** What is still held and may be captured or voided, in base units. */
export function capturableOf(payment: CommercePaymentRecord): bigint {
  return payment.status === "AUTHORIZED" ? BigInt(payment.amount) - BigInt(payment.capturedAmount) : 0n;
}

/** Refuses an action on a payment that is not in `wanted`, naming where it stands. */
export function requireStatus(
  payment: CommercePaymentRecord,
  wanted: CommercePaymentRecord["status"],
  action: string,
): void {
  if (payment.status !== wanted) {
    throw invalidState(
      `Commerce payment of request ${payment.requestId} is ${payment.status}; only a ${wanted} payment can be ${action}.`,
    );
  }
}

/** A capture's amount and fee, checked against what the payment still holds. */
export function checkCapture(
  payment: CommercePaymentRecord,
  body: Schemas["CommerceCaptureRequest"],
): { captureAmount: bigint; feeBps: number; feeReceiver: Address } {
  requireStatus(payment, "AUTHORIZED", "captured");
  const captureAmount = BigInt(body.captureAmount);
  const capturable = capturableOf(payment);
  if (captureAmount === 0n) throw invalidField("/body/captureAmount", "must be greater than 0");
  if (captureAmount > capturable) {
    throw invalidField(
      "/body/captureAmount",
      `must be at most ${capturable}, what is authorized and not captured, got ${body.captureAmount}`,
    );
  }
  const feeBps = body.feeBps ?? 0;
  if (feeBps > 0 && body.feeReceiver === undefined) {
    throw invalidField("/body/feeReceiver", `is required when feeBps is above 0 (got ${feeBps})`);
  }
  // A zero fee goes nowhere: the wrapper takes the zero address then.
  const feeReceiver = (body.feeReceiver ?? "0x0000000000000000000000000000000000000000") as Address;
  return { captureAmount, feeBps, feeReceiver };
}

/** The wrapper keeps amounts in 96 bits: larger ones revert on chain. */
export const maxEscrowAmount = (1n << 96n) - 1n;
export const isEscrowAmount = (value: bigint) => value <= maxEscrowAmount && value <= maxUint256;

export function appendEvent(
  payment: CommercePaymentRecord,
  event: CommercePaymentEventRecord,
  changes: Partial<CommercePaymentRecord>,
): CommercePaymentRecord {
  return { ...payment, ...changes, events: [...payment.events, event], updatedAt: event.timestamp };
}

export function toWireCommercePayment(payment: CommercePaymentRecord): Schemas["CommercePayment"] {
  const open = payment.status === "AUTHORIZED" && capturableOf(payment) > 0n;
  return {
    requestId: payment.requestId,
    status: payment.status,
    merchantId: payment.merchantId,
    payer: payment.payer,
    merchant: payment.merchant,
    operator: payment.operator,
    token: payment.token,
    paymentCurrency: payment.paymentCurrency,
    amount: payment.amount,
    maxAmount: payment.maxAmount,
    capturedAmount: payment.capturedAmount,
    voidedAmount: payment.voidedAmount,
    refundedAmount: "0",
    preApprovalExpiry: payment.preApprovalExpiry,
    authorizationExpiry: payment.authorizationExpiry,
    refundExpiry: payment.refundExpiry,
    canCapture: open,
    canVoid: open,
    canRefund: false,
    ...(payment.voidReason !== null ? { voidReason: payment.voidReason } : {}),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
    events: payment.events,
  };
}
