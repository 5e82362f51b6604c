import type { Hex } from "viem";
import { readTypedData } from "../../../wire/typed-data.ts";
import { newTxHash } from "../../ids.ts";
import { invalidState, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { PaymentIntentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnPaymentIntent, loadOwnRequest } from "../shared/own-records.ts";
import { recordPayment } from "../shared/record-payment.ts";
import { remainingAmount } from "../shared/requests.ts";
import { isSignedBy } from "../shared/typed-data-signatures.ts";
import type { Schemas } from "../shared/wire-types.ts";

type SignedTypedData = Schemas["SignedTypedData"];

/** The `nonce` and `deadline` of issued typed data, as the decimal strings a signer repeats. */
function termsOf(typedDataJson: string): { nonce: string; deadline: string } {
  const { message } = readTypedData(typedDataJson);
  return { nonce: String(message.nonce), deadline: String(message.deadline) };
}

/**
 * The issues of one signed piece of typed data: its nonce and deadline must be those issued, and
 * its signature the payer's over exactly what was issued.
 */
async function checkSigned(
  signed: SignedTypedData,
  issuedJson: string,
  intent: PaymentIntentRecord,
  pointer: string,
  what: string,
): Promise<ValidationIssue[]> {
  const issued = termsOf(issuedJson);
  const issues: ValidationIssue[] = [];
  for (const field of ["nonce", "deadline"] as const) {
    if (signed[field] !== issued[field]) {
      issues.push({
        path: `${pointer}/${field}`,
        message: `must be the ${field} of the ${what} issued, ${issued[field]}, got "${signed[field]}"`,
      });
    }
  }
  if (!(await isSignedBy(issuedJson, signed.signature as Hex, intent.payer))) {
    issues.push({
      path: `${pointer}/signature`,
      message: `is not a signature of the ${what} by the payer ${intent.payer}`,
    });
  }
  return issues;
}

async function checkSignatures(
  intent: PaymentIntentRecord,
  body: Schemas["PaymentIntentSubmission"],
): Promise<void> {
  const issues = await checkSigned(
    body.signedPaymentIntent,
    intent.paymentIntent,
    intent,
    "/body/signedPaymentIntent",
    "payment intent",
  );
  if (intent.approvalPermit === null && body.signedApprovalPermit !== undefined) {
    issues.push({
      path: "/body/signedApprovalPermit",
      message: "is not expected: this intent was issued without a permit to sign",
    });
  }
  if (intent.approvalPermit !== null) {
    if (body.signedApprovalPermit === undefined) {
      issues.push({
        path: "/body/signedApprovalPermit",
        message: "is required: this intent was issued with approvalPermitPayload, sign it too",
      });
    } else {
      issues.push(
        ...(await checkSigned(
          body.signedApprovalPermit,
          intent.approvalPermit,
          intent,
          "/body/signedApprovalPermit",
          "approval permit",
        )),
      );
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
}

function refuseSubmission(intent: PaymentIntentRecord, now: Date): Error | undefined {
  if (intent.status === "submitted") {
    return invalidState(
      `Payment intent ${intent.id} was already submitted; ask GET /v2/request/{requestId}/pay for a new one to pay again.`,
    );
  }
  const deadline = Number(termsOf(intent.paymentIntent).deadline);
  if (now.getTime() > deadline * 1000) {
    return invalidState(
      `Payment intent ${intent.id} expired at ${new Date(deadline * 1000).toISOString()}; ask GET /v2/request/{requestId}/pay for a new one.`,
    );
  }
  return undefined;
}

/**
 * Takes the payer's signatures of a cross-chain payment intent (and of its permit, when one was
 * issued), checks them against what was issued, and pays the request through the sandbox's bridge:
 * the payment is recorded like any other, with its webhook. One transaction; answers no body.
 */
export async function sendPaymentIntent(
  ctx: DomainContext,
  { principal, path: { paymentIntentId }, body }: OperationInput<"sendPaymentIntent">,
): Promise<undefined> {
  const intent = await loadOwnPaymentIntent(ctx.store, principal, paymentIntentId);
  const now = ctx.clock.now();
  const refusal = refuseSubmission(intent, now);
  if (refusal) throw refusal;
  await checkSignatures(intent, body);
  await ctx.store.withTransaction(async (tx) => {
    const current = await tx.paymentIntents.get(paymentIntentId);
    const again = current && refuseSubmission(current, now);
    if (again) throw again;
    const request = await loadOwnRequest(tx, principal, intent.requestId);
    const left = remainingAmount(request);
    if (request.status === "paid" || left === 0n) {
      throw invalidState(
        `Request ${request.requestId} is already paid; this intent can no longer be submitted.`,
      );
    }
    await recordPayment(
      tx,
      request,
      {
        outcome: BigInt(intent.amount) >= left ? "paid" : "partial",
        amount: intent.amount,
        // The bridge's transaction on the request's network; the sandbox has no chain to read it from.
        txHash: newTxHash(),
        subStatus: null,
        recordedAt: now.toISOString(),
        payer: intent.payer,
        sourceNetwork: intent.sourceNetwork,
      },
      now,
    );
    await tx.paymentIntents.put({ ...intent, status: "submitted", updatedAt: now.toISOString() });
  });
  return undefined;
}
