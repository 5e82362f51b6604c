import type { Hex } from "viem";
import { encodeCommerceCapture, encodeCommerceVoid } from "../../../chain/commerce-escrow.ts";
import type { CommercePaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnCommercePayment, loadOwnRequest } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { recordPayment } from "../shared/record-payment.ts";
import type { Schemas } from "../shared/wire-types.ts";
import {
  appendEvent,
  capturableOf,
  checkCapture,
  escrowWrapperOf,
  requireStatus,
  sandboxTransactionHash,
  toWireCommercePayment,
} from "./commerce-escrow-rules.ts";

// The operations on a commerce payment after its creation. The sandbox sends nothing on chain:
// each action takes effect at once, with a transaction hash of no chain; the calldata
// operations answer the wrapper's calls that the payment's operator would send.

/** Changes one of the caller's commerce payments in one transaction; `change` sees it as stored. */
async function changePayment<T>(
  ctx: DomainContext,
  principal: Principal,
  requestId: string,
  change: (
    tx: StoreOperations,
    payment: CommercePaymentRecord,
    now: Date,
  ) => Promise<[CommercePaymentRecord, T]>,
): Promise<T> {
  const now = ctx.clock.now();
  return ctx.store.withTransaction(async (tx) => {
    const payment = await loadOwnCommercePayment(tx, principal, requestId);
    const [changed, answer] = await change(tx, payment, now);
    await tx.commercePayments.put(changed);
    return answer;
  });
}

/** Authorizes a `PENDING` payment: the buyer's tokens are held in escrow. */
export function authorizeCommercePayment(
  ctx: DomainContext,
  { principal, path: { requestId } }: OperationInput<"authorizeCommercePayment">,
): Promise<Schemas["CommerceAuthorizationResult"]> {
  return changePayment(ctx, principal, requestId, async (_tx, payment, now) => {
    requireStatus(payment, "PENDING", "authorized");
    const transactionHash = sandboxTransactionHash(payment, "authorize");
    const event = {
      type: "AUTHORIZED" as const,
      timestamp: now.toISOString(),
      transactionHash,
      amount: payment.amount,
    };
    const changed = appendEvent(payment, event, { status: "AUTHORIZED" });
    return [changed, { requestId, status: changed.status, transactionHash, amount: payment.amount }];
  });
}

/** Captures part or all of what an `AUTHORIZED` payment holds, as a payment of its request. */
export function captureCommercePayment(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"captureCommercePayment">,
): Promise<Schemas["CommerceCaptureResult"]> {
  return changePayment(ctx, principal, requestId, async (tx, payment, now) => {
    const { captureAmount } = checkCapture(payment, body);
    const transactionHash = sandboxTransactionHash(payment, "capture");
    const capturedAmount = BigInt(payment.capturedAmount) + captureAmount;
    const whole = capturedAmount === BigInt(payment.amount);
    const at = now.toISOString();
    const request = await loadOwnRequest(tx, principal, requestId);
    await recordPayment(
      tx,
      request,
      {
        outcome: whole ? "paid" : "partial",
        amount: captureAmount.toString(),
        txHash: transactionHash,
        subStatus: null,
        recordedAt: at,
        payer: payment.payer,
      },
      now,
    );
    const event = {
      type: "CAPTURED" as const,
      timestamp: at,
      transactionHash,
      amount: captureAmount.toString(),
    };
    const changed = appendEvent(payment, event, {
      status: whole ? "PAID" : "AUTHORIZED",
      capturedAmount: capturedAmount.toString(),
    });
    return [
      changed,
      { requestId, status: changed.status, transactionHash, captureAmount: body.captureAmount },
    ];
  });
}

/** Returns what an `AUTHORIZED` payment still holds to the buyer. */
export function voidCommercePayment(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"voidCommercePayment">,
): Promise<Schemas["CommerceVoidResult"]> {
  return changePayment(ctx, principal, requestId, async (_tx, payment, now) => {
    requireStatus(payment, "AUTHORIZED", "voided");
    const voidedAmount = capturableOf(payment).toString();
    const transactionHash = sandboxTransactionHash(payment, "void");
    const event = {
      type: "VOIDED" as const,
      timestamp: now.toISOString(),
      transactionHash,
      amount: voidedAmount,
    };
    const changed = appendEvent(payment, event, {
      status: "VOIDED",
      voidedAmount,
      voidReason: body?.reason ?? null,
    });
    return [changed, { requestId, status: changed.status, transactionHash, voidedAmount }];
  });
}

function escrowCall(payment: CommercePaymentRecord, calldata: Hex): Schemas["CommerceEscrowCalldata"] {
  return {
    requestId: payment.requestId,
    calldata,
    to: escrowWrapperOf(payment.network),
    value: "0",
    operator: payment.operator,
  };
}

/** The wrapper's `capturePayment` call for a capture that would be accepted now. */
export async function generateCommerceCaptureCalldata(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"generateCommerceCaptureCalldata">,
): Promise<Schemas["CommerceEscrowCalldata"]> {
  const payment = await loadOwnCommercePayment(ctx.store, principal, requestId);
  const { captureAmount, feeBps, feeReceiver } = checkCapture(payment, body);
  return escrowCall(
    payment,
    encodeCommerceCapture(payment.paymentReference, captureAmount, feeBps, feeReceiver),
  );
}

/** The wrapper's `voidPayment` call for an `AUTHORIZED` payment. */
export async function generateCommerceVoidCalldata(
  ctx: DomainContext,
  { principal, path: { requestId } }: OperationInput<"generateCommerceVoidCalldata">,
): Promise<Schemas["CommerceEscrowCalldata"]> {
  const payment = await loadOwnCommercePayment(ctx.store, principal, requestId);
  requireStatus(payment, "AUTHORIZED", "voided");
  return escrowCall(payment, encodeCommerceVoid(payment.paymentReference));
}

/** One of the caller's commerce payments. */
export async function getCommercePaymentStatus(
  ctx: DomainContext,
  { principal, path: { requestId } }: OperationInput<"getCommercePaymentStatus">,
): Promise<Schemas["CommercePayment"]> {
  return toWireCommercePayment(await loadOwnCommercePayment(ctx.store, principal, requestId));
}
