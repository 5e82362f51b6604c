import { type Address, type Hex, isAddressEqual } from "viem";
import type { NetworkName } from "../../chain/index.ts";
import { loadAccountClock } from "../account-clock.ts";
import type { Clock } from "../clock.ts";
import { recordPayment } from "../domain/shared/record-payment.ts";
import { paymentTokenOf, remainingAmount } from "../domain/shared/requests.ts";
import { checksummed } from "../domain/shared/wallet-book.ts";
import type { ChainLogRecord, RequestRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";

/** A TransferWithReferenceAndFee log of a fee proxy, with what its transaction and block tell. */
export interface DetectedTransfer {
  chainId: number;
  network: NetworkName;
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockTimestamp: Date;
  /** The payment reference the calldata carried for this log; undefined when none matched its topic. */
  paymentReference: Hex | undefined;
  /** The ERC-20 moved; undefined for the native proxy. */
  tokenAddress: Address | undefined;
  to: Address;
  amount: bigint;
  /** Who sent the transaction. */
  from: Address;
}

/** The id a log is handled under: the chain, its transaction and its place there. */
export function logIdOf(transfer: Pick<DetectedTransfer, "chainId" | "txHash" | "logIndex">): string {
  return `${transfer.chainId}:${transfer.txHash.toLowerCase()}:${transfer.logIndex}`;
}

/** Whether the transfer pays this request: its network, currency and payee. */
function pays(transfer: DetectedTransfer, request: RequestRecord): boolean {
  if (request.network !== transfer.network || !isAddressEqual(transfer.to, request.payee)) return false;
  const token = paymentTokenOf(request);
  return token.type === "ETH"
    ? transfer.tokenAddress === undefined
    : transfer.tokenAddress !== undefined && isAddressEqual(transfer.tokenAddress, token.address);
}

/**
 * Handles one detected transfer at most once, in one transaction: the first to handle its log
 * records the payment of the request its reference names, as the service records a payment it
 * sees on chain (amount, transaction hash, block time, payer, webhook); any later run finds the
 * log handled and changes nothing. A transfer that pays no request, or one already paid, is
 * handled without a payment. Answers the request paid, if any.
 */
export async function recordDetectedTransfer(
  store: Store,
  baseClock: Clock,
  transfer: DetectedTransfer,
): Promise<RequestRecord | undefined> {
  const logId = logIdOf(transfer);
  return store.withTransaction(async (tx) => {
    if (await tx.chainLogs.get(logId)) return undefined;
    const found = transfer.paymentReference
      ? await tx.requests.first("paymentReference", transfer.paymentReference)
      : undefined;
    const request = found && pays(transfer, found) && remainingAmount(found) > 0n ? found : undefined;
    const handled: ChainLogRecord = {
      logId,
      chainId: String(transfer.chainId),
      blockNumber: transfer.blockNumber.toString(),
      requestId: request?.requestId ?? null,
      handledAt: baseClock.now().toISOString(),
    };
    await tx.chainLogs.put(handled);
    if (!request) return undefined;
    const clock = await loadAccountClock(tx, baseClock, request.accountId);
    const covers = transfer.amount >= remainingAmount(request);
    return recordPayment(
      tx,
      request,
      {
        outcome: covers ? "paid" : "partial",
        amount: transfer.amount.toString(),
        txHash: transfer.txHash,
        subStatus: null,
        recordedAt: transfer.blockTimestamp.toISOString(),
        payer: checksummed(transfer.from),
      },
      clock.now(),
    );
  });
}
