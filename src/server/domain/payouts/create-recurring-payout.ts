import { randomBytes } from "node:crypto";
import { zeroAddress } from "viem";
import {
  buildApproval,
  buildSchedulePermit,
  computeFeeAmount,
  getRecurringPaymentProxy,
  type NetworkName,
} from "../../../chain/index.ts";
import { newUlid } from "../../ids.ts";
import { invalidField } from "../../problems.ts";
import type { RecurringPaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { FeeSettings } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callerClientScope, type Principal } from "../shared/principal.ts";
import { periodSecondsOf, readStartDate } from "../shared/recurrence.ts";
import { createRequestRecord, planRequest, storeNewRequest } from "../shared/requests.ts";
import { toWireTransaction } from "../shared/transaction-wire.ts";
import { allowanceOf, checksummed } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";

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
  const plan = planRequest(
    {
      payee: body.payee,
      amount: body.amount,
      invoiceCurrency: body.invoiceCurrency,
      paymentCurrency: body.paymentCurrency,
    },
    "/body",
  );
  const { token, expectedAmount: amount } = plan;
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
  const id = newUlid(now);
  // The first period's request exists from the start, as on the service, which answers its id; the
  // first execution pays it, and each later period recurs from it.
  const firstPeriod = createRequestRecord(plan, {
    accountId: principal.accountId,
    now,
    securePaymentToken: null,
    ...callerClientScope(principal),
    recurringPaymentId: id,
  });
  const record: RecurringPaymentRecord = {
    id,
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
    currentRequestId: firstPeriod.requestId,
    originalRequestId: firstPeriod.requestId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ctx.store.withTransaction(async (tx) => {
    await tx.recurringPayments.put(record);
    await storeNewRequest(tx, firstPeriod, { recurringPaymentId: id }, now.toISOString());
  });
  return {
    id: record.id,
    requestId: firstPeriod.requestId,
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
