import { invalidField, ProblemError, validationFailed } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import { findCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { planRequest } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { storeSecurePaymentLink } from "./secure-payment-links.ts";

/** Where each member of the request form of a payout is in the payout's own body. */
const payoutFieldOf: Record<string, string> = {
  "/body/payee": "/body/recipient",
  "/body/invoiceCurrency": "/body/currency",
  "/body/paymentCurrency": "/body/currency",
  "/body/amount": "/body/amount",
};

/** Plans the payout's one request, with every issue at the payout body's own member. */
function planPayoutRequest(body: Schemas["CreatePayoutSecurePaymentRequest"]) {
  const token = findCurrency(body.currency);
  if (token && token.network !== body.network) {
    throw invalidField(
      "/body/network",
      `is ${body.network}, but the currency ${body.currency} is paid on ${token.network}: name the currency's network`,
    );
  }
  try {
    return planRequest(
      {
        payee: body.recipient,
        amount: body.amount,
        invoiceCurrency: body.currency,
        paymentCurrency: body.currency,
      },
      "/body",
    );
  } catch (error) {
    if (!(error instanceof ProblemError) || error.issues === undefined) throw error;
    // The currency is named twice in the request form: report it once.
    const issues = error.issues.map((issue) => ({ ...issue, path: payoutFieldOf[issue.path] ?? issue.path }));
    throw validationFailed(
      issues.filter((issue, index) => issues.findIndex((other) => other.path === issue.path) === index),
    );
  }
}

/**
 * A payment link for one outgoing payment of the caller: `amount` of `currency` to `recipient`,
 * paid through the same hosted page as the other links. The deprecated fee members are ignored.
 */
export async function createPayoutSecurePayment(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayoutSecurePayment">,
): Promise<Schemas["SecurePayment"]> {
  const plan = planPayoutRequest(body);
  return storeSecurePaymentLink(
    ctx,
    principal,
    async () => ({ network: plan.token.network, plans: [plan] }),
    {
      kind: "payout",
      payout: {
        recipientIdentifier: body.recipientIdentifier ?? null,
        creatorWalletAddress: body.creatorWalletAddress ?? null,
      },
      reference: body.reference ?? null,
      redirectUrl: body.redirectUrl ?? null,
      redirectLabel: body.redirectLabel ?? null,
      payerIdentifier: null,
    },
  );
}
