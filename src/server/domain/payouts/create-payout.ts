import { transactionValueToBigInt } from "../../../wire/transaction-value.ts";
import { invalidField } from "../../problems.ts";
import { joinTransaction } from "../../store/join-transaction.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import { readCustomerInfo } from "../shared/customer-info.ts";
import { type FeeSettings, resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { buildPayCalldata } from "../shared/pay-calldata.ts";
import { callerClientScope } from "../shared/principal.ts";
import { createRequestRecord, planRequest, storeNewRequest } from "../shared/requests.ts";
import { toBigNumberJson } from "../shared/transaction-wire.ts";
import { checksummed } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { createRecurringPayout } from "./create-recurring-payout.ts";

type PayoutBody = OperationInput<"createPayout">["body"];

/** The paying wallet: `payerWallet`, or its alias `payerAddress`; the two must agree when both come. */
function payingWallet(body: PayoutBody): string | undefined {
  const { payerWallet, payerAddress } = body;
  if (payerWallet !== undefined && payerAddress !== undefined) {
    if (payerWallet.toLowerCase() !== payerAddress.toLowerCase()) {
      throw invalidField("/body/payerAddress", `must equal payerWallet (${payerWallet}) when both are sent`);
    }
  }
  return payerWallet ?? payerAddress;
}

/** The fee a payout's metadata reports: the one its payments carry, when they carry one. */
function platformFeeOf(fee: FeeSettings): Schemas["PayoutFee"] | undefined {
  return fee.feePercentage !== undefined && fee.feeAddress !== undefined
    ? { percentage: fee.feePercentage, address: fee.feeAddress }
    : undefined;
}

/**
 * A one-off payout: a new request, then its pay calldata as `GET /v2/request/{requestId}/pay`
 * builds it for the paying wallet and fee (its metadata names the payment's index). Every value is
 * sent as an ethers BigNumber object, which all the clients of this operation read.
 */
async function createOneOffPayout(
  ctx: DomainContext,
  principal: OperationInput<"createPayout">["principal"],
  body: PayoutBody,
  fee: FeeSettings,
): Promise<Schemas["PayoutCalldata"]> {
  const wallet = payingWallet(body);
  const plan = planRequest(
    {
      payee: body.payee,
      amount: body.amount,
      invoiceCurrency: body.invoiceCurrency,
      paymentCurrency: body.paymentCurrency,
    },
    "/body",
  );
  const now = ctx.clock.now();
  const request: RequestRecord = {
    ...createRequestRecord(plan, {
      accountId: principal.accountId,
      now,
      securePaymentToken: null,
      ...callerClientScope(principal),
      flow: "outgoing",
    }),
    payer: wallet === undefined ? null : checksummed(wallet),
    customerInfo: readCustomerInfo(body.customerInfo),
    reference: body.reference ?? null,
  };
  // The request exists from here on, as on the service: its calldata is built from the store, in
  // the same transaction, so that a payout that cannot answer leaves no request behind.
  const calldata = await ctx.store.withTransaction(async (tx) => {
    await storeNewRequest(tx, request, { securePaymentToken: null }, now.toISOString());
    return buildPayCalldata(
      { ...ctx, store: joinTransaction(ctx.store, tx) },
      {
        principal,
        path: { requestId: request.requestId },
        body: undefined,
        query: {
          ...(wallet === undefined ? {} : { wallet }),
          ...(fee.feePercentage === undefined ? {} : { feePercentage: fee.feePercentage }),
          ...(fee.feeAddress === undefined ? {} : { feeAddress: fee.feeAddress }),
        },
      },
    );
  });
  if ("routeType" in calldata.metadata) throw new Error("same-chain pay calldata expected for a payout");
  const platformFee = platformFeeOf(fee);
  return {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    transactions: calldata.transactions.map((transaction, index) => ({
      ...transaction,
      value: toBigNumberJson(transactionValueToBigInt(transaction.value, `transactions[${index}].value`)),
    })),
    metadata: { ...calldata.metadata, ...(platformFee ? { platformFee } : {}) },
  };
}

/**
 * Pays a payee in one call: a one-off payout answers the calldata of a new request; one with
 * `recurrence` answers a pending recurring payment and the permit that starts it.
 */
export async function createPayout(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayout">,
): Promise<Schemas["PayoutCalldata"] | Schemas["RecurringPayout"]> {
  const fee = resolveFee(body, principal, "/body");
  if (body.recurrence) return createRecurringPayout(ctx, principal, body, body.recurrence, fee);
  return createOneOffPayout(ctx, principal, body, fee);
}
