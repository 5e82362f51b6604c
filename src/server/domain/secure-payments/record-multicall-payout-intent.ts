import { invalidField, invalidState } from "../../problems.ts";
import type { MulticallPayoutChildIntentRecord, MulticallPayoutIntentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput, SuccessBodyOf } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";

type Entry = NonNullable<OperationInput<"recordMulticallPayoutIntent">["body"]>["transactionIndices"][number];

/** The first entry naming a payout the link does not have, or one named before it; none if all are fine. */
function badPosition(entries: Entry[], payouts: number): { path: string; message: string } | undefined {
  const seen = new Set<number>();
  for (const [index, { childPosition }] of entries.entries()) {
    const path = `/body/transactionIndices/${index}/childPosition`;
    if (childPosition >= payouts) {
      return {
        path,
        message: `is ${childPosition}, but the link has ${payouts} payouts (positions 0 to ${payouts - 1})`,
      };
    }
    if (seen.has(childPosition))
      return { path, message: `is ${childPosition}, named by an earlier entry too` };
    seen.add(childPosition);
  }
  return undefined;
}

/**
 * Records, for a pending multicall link of the caller's account, which transaction of the batch
 * about to be submitted pays each payout named: one intent per payout, replaced by a later report
 * of the same payout. The payouts stay payable; nothing is locked or paid.
 */
export async function recordMulticallPayoutIntent(
  ctx: DomainContext,
  { principal, path: { token }, body }: OperationInput<"recordMulticallPayoutIntent">,
): Promise<SuccessBodyOf<"recordMulticallPayoutIntent">> {
  const now = ctx.clock.now().toISOString();
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnSecurePayment(tx, principal, token);
    if (record.kind !== "multicall" || !record.multicall) {
      throw invalidField(
        "/path/token",
        "is not a multicall payout link: report the payment of a single link with POST /v2/secure-payments/{token}/intent",
      );
    }
    const status = effectiveStatus(record, ctx.clock.now());
    if (status !== "pending") {
      throw invalidState(
        `The multicall payout link ${token} is ${status}: intents are recorded only while it is pending.`,
      );
    }
    const bad = badPosition(body.transactionIndices, record.multicall.childTokens.length);
    if (bad) throw invalidField(bad.path, bad.message);
    const kept = new Map(
      (record.multicallIntent?.children ?? []).map((child) => [child.childPosition, child] as const),
    );
    for (const entry of body.transactionIndices) {
      const child: MulticallPayoutChildIntentRecord = {
        childPosition: entry.childPosition,
        transactionIndex: entry.transactionIndex,
        routeTool: entry.routeTool ?? null,
        sourceToken: entry.sourceToken ?? null,
        sourceAmount: entry.sourceAmount ?? null,
        routeKind: entry.routeKind ?? null,
        bridgeTool: entry.bridgeTool ?? null,
        recordedAt: kept.get(entry.childPosition)?.recordedAt ?? now,
        updatedAt: now,
      };
      kept.set(entry.childPosition, child);
    }
    const multicallIntent: MulticallPayoutIntentRecord = {
      chain: body.chain,
      smartAccountAddress: body.smartAccountAddress ?? record.multicallIntent?.smartAccountAddress ?? null,
      payerEoaAddress: body.payerEoaAddress ?? record.multicallIntent?.payerEoaAddress ?? null,
      children: [...kept.values()].sort((one, other) => one.childPosition - other.childPosition),
    };
    await tx.securePayments.put({ ...record, multicallIntent, updatedAt: now });
    return { recorded: body.transactionIndices.length };
  });
}
