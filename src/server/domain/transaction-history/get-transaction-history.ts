import type { RequestPaymentRecord, RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { paymentsReceived, paymentTokenOf } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";

type Item = Schemas["TransactionHistoryItem"];

/**
 * The one currency a wallet's history is read in, as on the service: USDC on Base for an EVM
 * address, USDT on TRON for a TRON address (which the sandbox has no payments in).
 */
function historyCurrencyOf(address: string): string {
  return address.startsWith("0x") ? "USDC-base" : "USDT-tron";
}

const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** The wallet's transfers in one payment: received when it is the payee, paid when it paid. */
function transfersOf(address: string, request: RequestRecord, payment: RequestPaymentRecord): Item[] {
  const token = paymentTokenOf(request);
  const payer = payment.payer ?? request.payer ?? null;
  const amount = formatBaseUnits(payment.amount, token.decimals);
  const transfer = (type: Item["type"]): Item => ({
    type,
    timestamp: payment.recordedAt,
    ...(payer ? { from: payer } : {}),
    to: request.payee,
    amountReceived: amount,
    amountPaid: amount,
    paymentCurrency: token.symbol,
    receivingCurrency: token.symbol,
    paymentChain: payment.sourceNetwork ?? request.network,
    receivingChain: request.network,
    // The sandbox records one transaction per payment, the one on the payee's network.
    sourceTxHash: payment.txHash,
    destinationTxHash: payment.txHash,
  });
  const transfers: Item[] = [];
  if (same(request.payee, address)) transfers.push(transfer("incoming"));
  if (same(payer, address)) transfers.push(transfer("outgoing"));
  return transfers;
}

/** A wallet's transfers through the caller's requests, newest first, one page at a time. */
export async function getTransactionHistory(
  ctx: DomainContext,
  { principal, query }: OperationInput<"getTransactionHistory">,
): Promise<Schemas["TransactionHistoryPage"]> {
  const { address } = query;
  const currency = historyCurrencyOf(address);
  const requests = (await ctx.store.requests.find("account", principal.accountId)).items;
  const transfers = requests
    .filter((request) => same(request.paymentCurrency, currency))
    .flatMap((request) =>
      paymentsReceived(request).flatMap((payment) => transfersOf(address, request, payment)),
    )
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || a.type.localeCompare(b.type));
  const limit = query.limit ?? 20;
  const offset = query.offset ?? 0;
  return {
    transactions: transfers.slice(offset, offset + limit),
    pagination: { total: transfers.length, limit, offset, hasMore: offset + limit < transfers.length },
  };
}
