import { randomBytes } from "node:crypto";
import { type Hex, zeroAddress } from "viem";
import {
  buildApproval,
  buildSchedulePermit,
  computeFeeAmount,
  getRecurringPaymentProxy,
  type NetworkName,
} from "../../chain/index.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import { invalidField, invalidState } from "../problems.ts";
import type { RecurringPaymentRecord } from "../store/records.ts";
import { loadOwnRecurringPayment } from "./recurring-payments.ts";
import type { DomainContext } from "./shared/context.ts";
import type { FeeSettings } from "./shared/fees.ts";
import { newUlid } from "./shared/ids.ts";
import type { Principal } from "./shared/principal.ts";
import { periodSecondsOf, readStartDate } from "./shared/recurrence.ts";
import { planRequest } from "./shared/requests.ts";
import { appendStatusChange } from "./shared/status-changes.ts";
import { toWireTransaction } from "./shared/transaction-wire.ts";
import { isSignedBy } from "./shared/typed-data-signatures.ts";
import { allowanceOf, checksummed } from "./shared/wallet-book.ts";
import type { Schemas } from "./shared/wire-types.ts";

type PayoutBody = OperationInput<"createPayout">["body"];

/** The sandbox charges nothing for executing the payments. */
const gasFee = 0n;

/**
 * A recurring payout, pending until the payer signs: the schedule is checked (an ERC-20 token on
 * a network with a recurring payment proxy, a start that is not past, a payer other than the
 * payee), its permit is built and kept, and the approval of the proxy is added when the wallet
 * book says the payer's allowance does not cover every payment and fee.
 */
export async function createRecurringPayout(
  ctx: DomainContext,
  principal: Principal,
  body: PayoutBody,
  recurrence: Schemas["PayoutRecurrence"],
  fee: FeeSettings,
): Promise<Schemas["RecurringPayout"]> {
  const now = ctx.clock.now();
  if (recurrence.payer.toLowerCase() === body.payee.toLowerCase()) {
    throw invalidField("/body/recurrence/payer", `must not be the payee ${checksummed(body.payee)}`);
  }
  const start = readStartDate(recurrence.startDate, now, "/body/recurrence/startDate");
  const { token, expectedAmount: amount } = planRequest(
    {
      payee: body.payee,
      amount: body.amount,
      invoiceCurrency: body.invoiceCurrency,
      paymentCurrency: body.paymentCurrency,
    },
    "/body",
  );
  const proxy = getRecurringPaymentProxy(token.network);
  if (token.type !== "ERC20" || !proxy) {
    throw invalidField(
      "/body/paymentCurrency",
      `must be an ERC-20 token for a recurring payout (the recurring payment proxy moves ERC-20 tokens only), got ${token.id}`,
    );
  }
  const payer = checksummed(recurrence.payer);
  const feeAmount = computeFeeAmount(amount, fee.feePercentage);
  const periodSeconds = periodSecondsOf[recurrence.frequency];
  const firstExec = Math.floor(start.getTime() / 1000);
  const permit = buildSchedulePermit({
    network: token.network as NetworkName,
    verifyingContract: proxy,
    subscriber: payer,
    token: token.address,
    recipient: checksummed(body.payee),
    feeAddress: fee.feeAddress ?? zeroAddress,
    amount,
    feeAmount,
    gasFee,
    periodSeconds,
    firstExec,
    totalExecutions: recurrence.totalPayments,
    nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
    // The proxy refuses every execution past the deadline: it covers the whole schedule.
    deadline: firstExec + periodSeconds * recurrence.totalPayments,
  });
  const totalNeeded = (amount + feeAmount + gasFee) * BigInt(recurrence.totalPayments);
  const currentAllowance = await allowanceOf(ctx.store, principal.accountId, payer, token.id, proxy);
  const shortfall = totalNeeded > currentAllowance ? totalNeeded - currentAllowance : 0n;
  const transactions =
    shortfall > 0n
      ? [
          toWireTransaction(
            buildApproval({ token: token.address, spender: proxy, amount: totalNeeded }),
            "hex",
          ),
        ]
      : [];
  const record: RecurringPaymentRecord = {
    id: newUlid(now),
    accountId: principal.accountId,
    status: "pending",
    payer,
    payee: checksummed(body.payee),
    currency: token.id,
    amountPerPayment: amount.toString(),
    totalPayments: recurrence.totalPayments,
    processedPayments: 0,
    spender: proxy,
    nextPaymentDate: null,
    periodSeconds,
    permit: JSON.stringify(permit),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ctx.store.withTransaction((tx) => tx.putRecurringPayment(record));
  return {
    id: record.id,
    transactions,
    recurringPaymentPermit: permit,
    metadata: {
      stepsRequired: transactions.length + 1,
      totalNeededAllowance: totalNeeded.toString(),
      currentAllowance: currentAllowance.toString(),
      additionalAllowanceNeeded: shortfall.toString(),
      existingPaymentsAmount: "0",
    },
  };
}

/** Why a recurring payment cannot take a signature now, if it cannot. */
function refuseSignature(record: RecurringPaymentRecord, permit: { deadline: number }, now: Date) {
  if (record.status !== "pending") {
    const why =
      record.status === "active" ? "its permit signature was already accepted" : "it takes no signature";
    return invalidState(`Recurring payment ${record.id} is ${record.status}, not pending: ${why}.`);
  }
  if (now.getTime() > permit.deadline * 1000) {
    return invalidState(
      `The permit of recurring payment ${record.id} expired at ${new Date(permit.deadline * 1000).toISOString()}; create the recurring payout again.`,
    );
  }
  return undefined;
}

/**
 * Activates a pending recurring payment once its payer signed the permit it was created with: the
 * signature must recover to the payer over exactly that permit, else 400 naming the field and
 * nothing changes. Its first payment is then due at the permit's `firstExec`.
 */
export async function submitRecurringPaymentSignature(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"submitRecurringPaymentSignature">,
): Promise<Schemas["RecurringPaymentActivated"]> {
  const now = ctx.clock.now();
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnRecurringPayment(tx, principal, id);
    if (!record.permit) {
      throw invalidState(
        `Recurring payment ${id} was created through the sandbox API, without a permit to sign.`,
      );
    }
    const permit = JSON.parse(record.permit) as ReturnType<typeof buildSchedulePermit>;
    const refusal = refuseSignature(record, permit.values, now);
    if (refusal) throw refusal;
    if (!(await isSignedBy(record.permit, body.permitSignature as Hex, record.payer))) {
      throw invalidField(
        "/body/permitSignature",
        `is not a signature of the recurring payment permit by the payer ${record.payer}`,
      );
    }
    await tx.putRecurringPayment({
      ...record,
      status: "active",
      nextPaymentDate: new Date(permit.values.firstExec * 1000).toISOString(),
      updatedAt: now.toISOString(),
    });
    await appendStatusChange(tx, { of: "recurring_payment", id, from: "pending", to: "active" }, now);
    return { id, status: "active", message: "Recurring payment activated successfully" };
  });
}
