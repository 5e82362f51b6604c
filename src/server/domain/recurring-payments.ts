import type { Address } from "viem";
import { buildAllowanceReset } from "../../chain/index.ts";
import { invalidState, notFound, type ValidationIssue, validationFailed } from "../problems.ts";
import type { RecurringPaymentRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import { formatBaseUnits, readAmount } from "./amounts.ts";
import type { DomainContext } from "./context.ts";
import { findCurrency, requireCurrency } from "./currencies.ts";
import { newUlid } from "./ids.ts";
import type { Principal } from "./principal.ts";
import { toWireTransaction } from "./transaction-wire.ts";
import { checksummed } from "./wallet-book.ts";
import type { Schemas } from "./wire-types.ts";

export async function loadOwnRecurringPayment(
  store: StoreOperations,
  principal: Principal,
  id: string,
): Promise<RecurringPaymentRecord> {
  const record = await store.getRecurringPayment(id);
  // Another account's recurring payment is as unknown to the caller as a missing one.
  if (!record || record.accountId !== principal.accountId)
    throw notFound(`No recurring payment has the id ${id}.`);
  return record;
}

function refuse(record: RecurringPaymentRecord, action: "cancel" | "unpause"): Error | undefined {
  const { id, status } = record;
  if (action === "cancel" && status === "cancelled") {
    return invalidState(`Recurring payment ${id} is already cancelled; there is nothing left to cancel.`);
  }
  if (action === "cancel" && status === "completed") {
    return invalidState(
      `Recurring payment ${id} is completed (${record.processedPayments} of ${record.totalPayments} payments executed) and cannot be cancelled.`,
    );
  }
  if (action === "unpause" && status !== "paused") {
    return invalidState(
      `Recurring payment ${id} is ${status}, not paused; unpause applies only to a paused recurring payment.`,
    );
  }
  return undefined;
}

/**
 * Applies `cancel` (active or paused -> cancelled, with the `approve(spender, 0)` that withdraws
 * the allowance) or `unpause` (paused -> active). Any other combination answers 400 invalid-state.
 */
export async function updateRecurringPayment(
  ctx: DomainContext,
  principal: Principal,
  id: string,
  action: "cancel" | "unpause",
): Promise<Schemas["RecurringPayment"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnRecurringPayment(tx, principal, id);
    const refusal = refuse(record, action);
    if (refusal) throw refusal;
    const now = ctx.clock.now();
    const status = action === "cancel" ? "cancelled" : "active";
    const nextPaymentDate =
      action === "unpause"
        ? new Date(
            Math.max(now.getTime(), Date.parse(record.nextPaymentDate ?? now.toISOString())),
          ).toISOString()
        : record.nextPaymentDate;
    const updated: RecurringPaymentRecord = {
      ...record,
      status,
      nextPaymentDate,
      updatedAt: now.toISOString(),
    };
    await tx.putRecurringPayment(updated);
    await tx.appendEvent({
      type: "recurring_payment.status_changed",
      occurredAt: now.toISOString(),
      data: { id, from: record.status, to: status },
    });
    const { processedPayments, totalPayments } = record;
    if (action === "unpause") {
      return { id, status, metadata: { processedPayments, totalPayments, nextPaymentDate } };
    }
    const token = requireCurrency(record.currency, `recurring payment ${id}`);
    const remainingPayments = totalPayments - processedPayments;
    return {
      id,
      status,
      transactions: [
        toWireTransaction(buildAllowanceReset({ token: token.address, spender: record.spender }), "hex"),
      ],
      metadata: {
        remainingPayments,
        remainingAmount: (BigInt(record.amountPerPayment) * BigInt(remainingPayments)).toString(),
        processedPayments,
        totalPayments,
      },
    };
  });
}

export function toSandboxRecurringPayment(
  record: RecurringPaymentRecord,
): Schemas["SandboxRecurringPayment"] {
  const { decimals } = requireCurrency(record.currency, `recurring payment ${record.id}`);
  return {
    id: record.id,
    status: record.status,
    payer: record.payer,
    payee: record.payee,
    currency: record.currency,
    amount: formatBaseUnits(record.amountPerPayment, decimals),
    totalPayments: record.totalPayments,
    processedPayments: record.processedPayments,
    spender: record.spender,
    nextPaymentDate: record.nextPaymentDate,
    createdAt: record.createdAt,
  };
}

function checkCounts(status: RecurringPaymentRecord["status"], processed: number, total: number) {
  if (processed > total) return `must be at most totalPayments (${total}), got ${processed}`;
  if (status === "completed" && processed !== total) {
    return `must equal totalPayments (${total}) for a completed recurring payment, got ${processed}`;
  }
  if ((status === "active" || status === "paused") && processed >= total) {
    return `must be below totalPayments (${total}) for an ${status === "active" ? "active" : "paused"} recurring payment, got ${processed}`;
  }
  return undefined;
}

/** Sandbox: creates a recurring payment of the caller's account in the given status. */
export async function createSandboxRecurringPayment(
  ctx: DomainContext,
  principal: Principal,
  body: Schemas["SandboxRecurringPaymentCreate"],
): Promise<Schemas["SandboxRecurringPayment"]> {
  const issues: ValidationIssue[] = [];
  const status = body.status ?? "active";
  const processedPayments = body.processedPayments ?? 0;
  const token = findCurrency(body.currency);
  let amountPerPayment = 0n;
  if (token?.type !== "ERC20") {
    issues.push({
      path: "/body/currency",
      message: `must be an ERC-20 currency the sandbox knows, got "${body.currency}"`,
    });
  } else {
    const reading = readAmount(body.amount, token.decimals, token.id);
    if (!reading.ok) issues.push({ path: "/body/amount", message: reading.message });
    else if (reading.units === 0n)
      issues.push({ path: "/body/amount", message: `must be greater than 0, got "${body.amount}"` });
    else amountPerPayment = reading.units;
  }
  const countProblem = checkCounts(status, processedPayments, body.totalPayments);
  if (countProblem) issues.push({ path: "/body/processedPayments", message: countProblem });
  if (issues.length > 0 || !token) throw validationFailed(issues);

  const now = ctx.clock.now();
  const record: RecurringPaymentRecord = {
    id: newUlid(now),
    accountId: principal.accountId,
    status,
    payer: checksummed(body.payer),
    payee: checksummed(body.payee),
    currency: token.id,
    amountPerPayment: amountPerPayment.toString(),
    totalPayments: body.totalPayments,
    processedPayments,
    spender: checksummed(body.spender) as Address,
    nextPaymentDate: body.nextPaymentDate ? new Date(body.nextPaymentDate).toISOString() : null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ctx.store.putRecurringPayment(record);
  return toSandboxRecurringPayment(record);
}

export async function readSandboxRecurringPayment(
  ctx: DomainContext,
  principal: Principal,
  id: string,
): Promise<Schemas["SandboxRecurringPayment"]> {
  return toSandboxRecurringPayment(await loadOwnRecurringPayment(ctx.store, principal, id));
}
