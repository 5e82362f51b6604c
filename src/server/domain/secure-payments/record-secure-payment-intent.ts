import { newUlid } from "../../ids.ts";
import { invalidField, validationFailed } from "../../problems.ts";
import type { SecurePaymentIntentRecord, SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { intentInProgress, requirePayable } from "./payable-secure-payment.ts";

function toAnswer(
  intent: SecurePaymentIntentRecord,
  paymentReference: string,
  now: Date,
): Schemas["SecurePaymentIntent"] {
  return {
    intentId: intent.id,
    paymentReference,
    ...(intent.txHash === null ? {} : { txHash: intent.txHash }),
    ...(intent.safeTxHash === null ? {} : { safeTxHash: intent.safeTxHash }),
    ...(intent.safePaymentDeadline === null ? {} : { safePaymentDeadline: intent.safePaymentDeadline }),
    ...(intent.payerAddress === null ? {} : { payerAddress: intent.payerAddress }),
    isListening: intentInProgress({ intent } as SecurePaymentRecord, now) !== undefined,
  };
}

/**
 * Records the payment the payer's wallet submitted for a single secure payment of the caller's
 * account (another account's token answers as an unknown one, so that no one else can lock the
 * link): the first report
 * creates the link's intent, later ones reuse it and add or replace its hashes. Until the payment
 * is recorded, the link's token check and calldata answer 423.
 */
export async function recordSecurePaymentIntent(
  ctx: DomainContext,
  { principal, path: { token }, body }: OperationInput<"recordSecurePaymentIntent">,
): Promise<Schemas["SecurePaymentIntent"]> {
  const now = ctx.clock.now();
  if (body.txHash === undefined && body.safeTxHash === undefined) {
    throw invalidField(
      "/body/txHash",
      "is missing: send the broadcast transaction's txHash, or the safeTxHash of a Safe transaction",
    );
  }
  if (body.safePaymentDeadline !== undefined) {
    const issues = [];
    if (body.safeTxHash === undefined) {
      issues.push({ path: "/body/safePaymentDeadline", message: "is only taken together with safeTxHash" });
    } else if (body.safePaymentDeadline * 1000 <= now.getTime()) {
      issues.push({
        path: "/body/safePaymentDeadline",
        message: `has passed (it is ${new Date(body.safePaymentDeadline * 1000).toISOString()}, now is ${now.toISOString()}): the Safe transaction can no longer execute`,
      });
    }
    if (issues.length > 0) throw validationFailed(issues);
  }
  return ctx.store.withTransaction(async (tx) => {
    const record = requirePayable(await loadOwnSecurePayment(tx, principal, token), now, {
      inProgress: "allowed",
    });
    const [requestId] = record.requestIds;
    if (record.requestIds.length !== 1 || requestId === undefined) {
      throw invalidField(
        "/path/token",
        `is a batch link of ${record.requestIds.length} requests: a payment is reported for a single secure payment`,
      );
    }
    const request = await tx.requests.get(requestId);
    if (!request) throw new Error(`secure payment ${token} names a missing request ${requestId}`);
    const previous = record.intent;
    const intent: SecurePaymentIntentRecord = {
      id: previous?.id ?? newUlid(now),
      chain: body.chain,
      token: body.token,
      txHash: body.txHash ?? previous?.txHash ?? null,
      safeTxHash: body.safeTxHash ?? previous?.safeTxHash ?? null,
      safePaymentDeadline:
        body.safePaymentDeadline ??
        (body.safeTxHash === undefined ? (previous?.safePaymentDeadline ?? null) : null),
      payerAddress: body.payerAddress ?? previous?.payerAddress ?? null,
      recordedAt: previous?.recordedAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await tx.securePayments.put({ ...record, intent, updatedAt: now.toISOString() });
    return toAnswer(intent, request.paymentReference, now);
  });
}
