import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { planRequests } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { resolveSecurePaymentItems } from "./secure-payment-items.ts";
import { storeSecurePaymentLink } from "./secure-payment-links.ts";

/** Creates the requests of `body` and a payment link for them. */
export async function createSecurePayment(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createSecurePayment">,
): Promise<Schemas["SecurePayment"]> {
  // A deactivation of a destination either comes before the link is stored and refuses the item, or after.
  return storeSecurePaymentLink(
    ctx,
    principal,
    async (tx) =>
      planRequests(await resolveSecurePaymentItems(tx, principal, body.requests), "/body/requests"),
    {
      kind: "incoming",
      reference: body.reference ?? null,
      redirectUrl: body.redirectUrl ?? null,
      redirectLabel: body.redirectLabel ?? null,
      payerIdentifier: body.payerIdentifier ?? null,
    },
  );
}
