import { newUlid } from "../../ids.ts";
import { invalidField } from "../../problems.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { requirePayoutLinks } from "./payout-links.ts";
import { putNewSecurePayment } from "./secure-payment-links.ts";

/**
 * A link over pending single payout links of the caller, in the order of `childTokens`. The
 * payout links stay as they are: the new link refers to them and holds their requests.
 */
export async function createMulticallPayout(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createMulticallPayout">,
): Promise<Schemas["MulticallPayoutCreated"]> {
  if (body.requestedExecutionKind === "tron_batch") {
    throw invalidField(
      "/body/requestedExecutionKind",
      "is tron_batch: payreq has no Tron support; leave it out or name an EVM kind",
    );
  }
  const now = ctx.clock.now();
  const token = newUlid(now);
  const created = await ctx.store.withTransaction(async (tx) => {
    const children = await requirePayoutLinks(
      tx,
      principal,
      body.childTokens,
      { listPath: "/body/childTokens", oneNetwork: false },
      now,
    );
    const record = await putNewSecurePayment(
      ctx,
      tx,
      principal,
      {
        token,
        requestIds: children.flatMap((child) => child.requestIds),
        network: (children[0] as SecurePaymentRecord).network,
      },
      {
        kind: "multicall",
        multicall: {
          childTokens: children.map((child) => child.token),
          requestedExecutionKind: body.requestedExecutionKind ?? null,
        },
        reference: null,
        redirectUrl: null,
        redirectLabel: null,
        payerIdentifier: null,
      },
    );
    return { record, children };
  });
  return {
    type: "multicall",
    token,
    status: "pending",
    expiresAt: created.record.expiresAt,
    createdAt: created.record.createdAt,
    items: created.children.map((child, position) => ({
      securePaymentToken: child.token,
      requestId: child.requestIds[0] as string,
      position,
      eligibility: "eligible" as const,
    })),
  };
}
