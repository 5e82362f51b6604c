import { notFound } from "../../problems.ts";
import type { RequestRecord, SecurePaymentRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { usdDecimals, usdValueOf } from "../shared/conversion.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { paymentTokenOf } from "../shared/requests.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { intentInProgress } from "./payable-secure-payment.ts";
import { paymentAmount } from "./payment-amounts.ts";

type Child = Schemas["MulticallPayoutChild"];

type BlockReason = NonNullable<Child["blockReason"]>;

/** What to do about each block reason payreq answers. */
const recoveryActions: Partial<Record<BlockReason, Child["recoveryAction"]>> = {
  already_paid: "remove_child",
  secure_payment_expired: "recreate_reduced",
  secure_payment_not_pending: "remove_child",
  compliance_failed: "support_required",
  request_processing: null,
};

/** Why a payout of a multicall link cannot be paid now, or null. */
function blockReasonOf(link: SecurePaymentRecord, request: RequestRecord, now: Date): BlockReason | null {
  if (request.status === "paid") return "already_paid";
  const status = effectiveStatus(link, now);
  if (status === "expired") return "secure_payment_expired";
  if (status === "compliance_failed") return "compliance_failed";
  if (status !== "pending") return "secure_payment_not_pending";
  if (intentInProgress(link, now)) return "request_processing";
  return null;
}

function toChild(link: SecurePaymentRecord, request: RequestRecord, position: number, now: Date): Child {
  const blockReason = blockReasonOf(link, request, now);
  return {
    securePaymentToken: link.token,
    requestId: request.requestId,
    position,
    executable: blockReason === null,
    blockReason,
    messageKey: blockReason === null ? null : `multicall.child.${blockReason}`,
    context: {
      requestId: request.requestId,
      securePaymentToken: link.token,
      position,
      hasBeenPaid: request.status === "paid",
      securePaymentStatus: effectiveStatus(link, now),
      requestStatus: request.status,
      expiresAt: link.expiresAt,
      network: request.network,
      currency: request.paymentCurrency,
    },
    recoveryAction: blockReason === null ? null : (recoveryActions[blockReason] ?? null),
    feePlan: null,
    amount: paymentAmount(request),
    payee: request.payee,
    reference: link.reference,
  };
}

/** The sum of the payouts per network and currency, in order of first appearance. */
function sumsByCurrency(requests: RequestRecord[]) {
  const sums = new Map<string, { network: string; currency: string; units: bigint; decimals: number }>();
  for (const request of requests) {
    const key = `${request.network}|${request.paymentCurrency}`;
    const sum = sums.get(key) ?? {
      network: request.network,
      currency: request.paymentCurrency,
      units: 0n,
      decimals: paymentTokenOf(request).decimals,
    };
    sum.units += BigInt(request.expectedAmount);
    sums.set(key, sum);
  }
  return [...sums.values()].map(({ network, currency, units, decimals }) => ({
    network,
    currency,
    totalAmount: formatBaseUnits(units, decimals),
  }));
}

/**
 * The state of a multicall link of the caller's account, payout by payout; 404 alike for an
 * unknown token, another account's and a link of another kind.
 */
export async function getMulticallPayout(
  ctx: DomainContext,
  { principal, path: { token } }: OperationInput<"getMulticallPayout">,
): Promise<Schemas["MulticallPayout"]> {
  const missing = `No multicall payout link of your account has the token ${token}.`;
  const record = await loadOwnSecurePayment(ctx.store, principal, token, missing);
  if (record.kind !== "multicall" || !record.multicall) throw notFound(missing);
  const now = ctx.clock.now();
  const children: Child[] = [];
  const requests: RequestRecord[] = [];
  for (const [position, childToken] of record.multicall.childTokens.entries()) {
    const link = await ctx.store.securePayments.get(childToken);
    const request = link && (await ctx.store.requests.get(link.requestIds[0] as string));
    if (!link || !request)
      throw new Error(`multicall link ${token} refers to a missing payout ${childToken}`);
    children.push(toChild(link, request, position, now));
    requests.push(request);
  }
  const paid = children.filter((child) => child.context.hasBeenPaid).length;
  const expired = effectiveStatus(record, now) === "expired";
  const status =
    paid === children.length ? "completed" : paid > 0 ? "partially_settled" : expired ? "expired" : "pending";
  const blocked = children.filter((child) => !child.executable).length;
  const usd = requests.reduce(
    (total, request) => total + (usdValueOf(BigInt(request.expectedAmount), paymentTokenOf(request)) ?? 0n),
    0n,
  );
  const totalUsd = formatBaseUnits(usd, usdDecimals);
  return {
    paymentType: "multicall",
    status,
    redirectUrl: record.redirectUrl,
    redirectLabel: record.redirectLabel,
    orchestratorId: null,
    branding: null,
    analytics: {
      creationTimestamp: record.createdAt,
      totalPaymentAmountUsd: totalUsd,
      protocolFeeAmountUsd: "0",
      numberOfPaymentsExcludingFees: children.length,
    },
    requestIds: record.requestIds,
    token,
    canExecute: !expired && status === "pending" && blocked === 0,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
    children,
    totals: {
      childCount: children.length,
      blockedChildCount: blocked,
      byDestinationCurrency: sumsByCurrency(requests),
      amountSummary: {
        grossAmount: totalUsd,
        netRecipientAmount: totalUsd,
        totalFees: "0",
        payeeBorneFees: "0",
        payerBorneFees: "0",
        payerTotal: totalUsd,
      },
    },
  };
}
