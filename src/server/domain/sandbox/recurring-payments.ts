import type { Address } from "viem";
import { newUlid } from "../../ids.ts";
import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { RecurringPaymentRecord } from "../../store/records.ts";
import { formatBaseUnits, readAmount } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { findCurrency, requireCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRecurringPayment } from "../shared/own-records.ts";
import { checksummed } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";

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
  { principal, body }: OperationInput<"createSandboxRecurringPayment">,
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
  await ctx.store.recurringPayments.put(record);
  return toSandboxRecurringPayment(record);
}

export async function getSandboxRecurringPayment(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"getSandboxRecurringPayment">,
): Promise<Schemas["SandboxRecurringPayment"]> {
  return toSandboxRecurringPayment(await loadOwnRecurringPayment(ctx.store, principal, id));
}
