import { newUlid } from "../../ids.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadRequests } from "../shared/requests.ts";
import { appendStatusChange } from "../shared/status-changes.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { requirePayoutLinks } from "./payout-links.ts";
import { putNewSecurePayment, toCreatedLink } from "./secure-payment-links.ts";

/**
 * One link paying the requests of several pending payout links of the caller, in the order of
 * `tokens`. The joined links end invalidated, and their requests move to the new link, so that
 * paying it completes it and `findSecurePayment` finds it by any of them.
 */
export async function createBatchPayoutSecurePayment(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createBatchPayoutSecurePayment">,
): Promise<Schemas["SecurePayment"]> {
  const now = ctx.clock.now();
  const token = newUlid(now);
  const created = await ctx.store.withTransaction(async (tx) => {
    const links = await requirePayoutLinks(
      tx,
      principal,
      body.tokens,
      { listPath: "/body/tokens", oneNetwork: true },
      now,
    );
    const requests = await loadRequests(
      tx,
      links.flatMap((link) => link.requestIds),
    );
    for (const request of requests) {
      await tx.requests.put({ ...request, securePaymentToken: token, updatedAt: now.toISOString() });
    }
    for (const link of links) {
      await tx.securePayments.put({ ...link, status: "invalidated", updatedAt: now.toISOString() });
      await appendStatusChange(
        tx,
        { of: "secure_payment", token: link.token, from: link.status, to: "invalidated" },
        now,
      );
    }
    const network = (links[0] as SecurePaymentRecord).network;
    return putNewSecurePayment(
      ctx,
      tx,
      principal,
      { token, requestIds: requests.map((request) => request.requestId), network },
      {
        kind: "payout",
        payout: { recipientIdentifier: null, creatorWalletAddress: null },
        reference: null,
        redirectUrl: body.redirectUrl ?? null,
        redirectLabel: body.redirectLabel ?? null,
        payerIdentifier: null,
      },
    );
  });
  return toCreatedLink(ctx, created);
}
