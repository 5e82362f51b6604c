import type { Address } from "viem";
import {
  type BatchPaymentItem,
  type BatchPaymentTransactions,
  buildBatchPaymentTransactions,
  computeFeeAmount,
  type NetworkName,
} from "../../../chain/index.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { DomainContext } from "./context.ts";
import { contractsFor } from "./contracts.ts";
import type { FeeSettings } from "./fees.ts";
import { amountDue, paymentTokenOf } from "./requests.ts";
import { toWireTransaction } from "./transaction-wire.ts";
import { allowanceOf } from "./wallet-book.ts";
import type { Schemas } from "./wire-types.ts";

function toBatchItem(request: RequestRecord, feePercentage: string | undefined): BatchPaymentItem {
  const token = paymentTokenOf(request);
  const amount = amountDue(request);
  return {
    token,
    payee: request.payee,
    amount,
    paymentReference: request.paymentReference,
    feeAmount: computeFeeAmount(amount, feePercentage),
  };
}

/**
 * One `batchPayments` call on the network of the requests (they share one) that pays what is due
 * on each, after the approvals the wallet book of `accountId` (the caller's) says `payer` lacks
 * (all of them when no payer is named). Without a fee address, the payer (or else the first payee) stands in: the batch
 * contract sends its batch fee there and refuses the zero address.
 */
export async function buildBatchPayment(
  ctx: DomainContext,
  accountId: string,
  requests: RequestRecord[],
  fee: FeeSettings,
  payer: string | undefined,
): Promise<BatchPaymentTransactions & { payments: BatchPaymentItem[] }> {
  const [first] = requests;
  if (!first) throw new Error("a batch needs at least one request");
  const network = first.network;
  const contracts = contractsFor(ctx, network);
  const payments = requests.map((request) => toBatchItem(request, fee.feePercentage));

  let currentAllowances: Record<Address, bigint> | undefined;
  if (payer !== undefined) {
    currentAllowances = {};
    for (const payment of payments) {
      if (payment.token.type !== "ERC20") continue;
      currentAllowances[payment.token.address] = await allowanceOf(
        ctx.store,
        accountId,
        payer,
        payment.token.id,
        contracts.batchConversionPayments,
      );
    }
  }
  const built = buildBatchPaymentTransactions({
    network: network as NetworkName,
    payments,
    feeAddress: (fee.feeAddress ?? payer ?? first.payee) as Address,
    currentAllowances,
    contracts,
  });
  return { payments, ...built };
}

/**
 * A batch in the form the service's own app and published examples read: one batch transaction,
 * and the approval list always present (empty when nothing needs approving). See BatchPayout.
 */
export function toBatchAnswer(
  built: BatchPaymentTransactions,
): Required<Pick<Schemas["BatchPayout"], "ERC20ApprovalTransactions" | "batchPaymentTransaction">> {
  return {
    ERC20ApprovalTransactions: built.approvals.map((approval) => toWireTransaction(approval, "number")),
    batchPaymentTransaction: toWireTransaction(built.batchPayment, "bignumber"),
  };
}
