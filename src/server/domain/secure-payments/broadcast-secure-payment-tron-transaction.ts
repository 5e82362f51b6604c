import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput, SuccessBodyOf } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";

/**
 * Refuses every Tron broadcast: payreq's links pay on EVM networks only, so no link of the
 * caller's account has a Tron transaction to relay. An unknown token, or another account's,
 * answers 404 first, as for any other operation on a link.
 */
export async function broadcastSecurePaymentTronTransaction(
  ctx: DomainContext,
  { principal, path: { token } }: OperationInput<"broadcastSecurePaymentTronTransaction">,
): Promise<SuccessBodyOf<"broadcastSecurePaymentTronTransaction">> {
  const record = await loadOwnSecurePayment(ctx.store, principal, token);
  const payWith =
    record.kind === "multicall"
      ? "read it with GET /v2/secure-payments/multicall-payouts/{token}"
      : "pay it with the transactions of GET /v2/secure-payments/{token}/pay";
  throw invalidField(
    "/path/token",
    `is a link paying on ${record.network}, an EVM network: payreq serves EVM networks only, so no secure payment here pays on Tron and there is no Tron transaction to broadcast; ${payWith}`,
  );
}
