import { type Client, createClient, type Hex, http } from "viem";
import { getBlock, getBlockNumber, getLogs, getTransaction } from "viem/actions";
import {
  erc20FeeProxyAbi,
  ethereumFeeProxyAbi,
  type NetworkName,
  resolveContracts,
} from "../../chain/index.ts";
import { chainIds } from "../../chain/networks.ts";
import type { Clock } from "../clock.ts";
import type { ServerLogger } from "../server-logger.ts";
import type { Store } from "../store/store.ts";
import { findReferenceOfTopic } from "./calldata-references.ts";
import { type DetectedTransfer, recordDetectedTransfer } from "./record-detected-payment.ts";

export interface PaymentDetectorOptions {
  store: Store;
  baseClock: Clock;
  logger: ServerLogger;
  /** The node's JSON-RPC URL. */
  rpcUrl: string;
  /** The network the node stands for (its requests are the ones paid there). */
  network: NetworkName;
  /** How long it waits between two reads of the chain (default 200 ms: payments show within a second). */
  pollIntervalMs?: number;
}

const transferEvents = [
  erc20FeeProxyAbi.find((item) => item.type === "event"),
  ethereumFeeProxyAbi.find((item) => item.type === "event"),
] as const;

/** The most blocks one read asks logs of, so that a long-lived node is caught up on in steps. */
const maxBlocksPerRead = 2000n;

/**
 * Watches the fee proxies' TransferWithReferenceAndFee logs (the batch contract pays through the
 * proxies, so its payments emit them too) and records each payment they make. It reads from the
 * block after the stored cursor, so a restart neither misses nor repeats a log, and several
 * instances on one database each handle a log only if no other has (recordDetectedTransfer).
 */
export class PaymentDetector {
  private readonly client: Client;
  private readonly chainId: number;
  private readonly proxies: Hex[];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** No tick is scheduled (before start, after stop). */
  private idle = true;
  /** Set by stop(): a read under way ends after the logs it has. */
  private halted = false;
  private lastError: string | undefined;

  constructor(private readonly options: PaymentDetectorOptions) {
    this.client = createClient({ transport: http(options.rpcUrl) });
    this.chainId = chainIds[options.network];
    const contracts = resolveContracts(options.network, undefined);
    this.proxies = [contracts.erc20FeeProxy, contracts.ethereumFeeProxy];
  }

  start(): void {
    if (!this.idle) return;
    this.idle = false;
    this.halted = false;
    this.schedule(0);
  }

  /** Stops reading; resolves once a read under way has finished. */
  async stop(): Promise<void> {
    this.idle = true;
    this.halted = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Reads the chain once, up to its newest block; what each tick does. */
  async readOnce(): Promise<void> {
    const head = await getBlockNumber(this.client, { cacheTime: 0 });
    const cursorKey = String(this.chainId);
    const cursor = await this.options.store.chainCursors.get(cursorKey);
    let from = cursor ? BigInt(cursor.lastBlock) + 1n : 0n;
    while (from <= head && !this.halted) {
      const to = from + maxBlocksPerRead - 1n < head ? from + maxBlocksPerRead - 1n : head;
      const logs = await getLogs(this.client, {
        address: this.proxies,
        events: transferEvents,
        fromBlock: from,
        toBlock: to,
        strict: true,
      });
      const blockTimes = new Map<bigint, Date>();
      for (const log of logs as unknown as ProxyLog[]) {
        const transfer = await this.describe(log, blockTimes);
        await recordDetectedTransfer(this.options.store, this.options.baseClock, transfer);
      }
      await this.advanceCursor(cursorKey, to);
      from = to + 1n;
    }
  }

  private schedule(delayMs: number): void {
    if (this.idle) return;
    this.timer = setTimeout(() => {
      this.running = this.readOnce()
        .then(() => {
          this.lastError = undefined;
        })
        .catch((error: Error) => this.report(error))
        .finally(() => this.schedule(this.options.pollIntervalMs ?? 200));
    }, delayMs);
  }

  /** Reports a failing read once, not at every tick while the node stays away. */
  private report(error: Error): void {
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.options.logger.error(`Payment detection could not read the chain at ${this.options.rpcUrl}`, error);
  }

  /** Moves the cursor forward only: another instance may have read further. */
  private async advanceCursor(chainId: string, lastBlock: bigint): Promise<void> {
    await this.options.store.withTransaction(async (tx) => {
      const current = await tx.chainCursors.get(chainId);
      if (current && BigInt(current.lastBlock) >= lastBlock) return;
      await tx.chainCursors.put({ chainId, lastBlock: lastBlock.toString() });
    });
  }

  private async describe(log: ProxyLog, blockTimes: Map<bigint, Date>): Promise<DetectedTransfer> {
    const transaction = await getTransaction(this.client, { hash: log.transactionHash });
    let blockTime = blockTimes.get(log.blockNumber);
    if (!blockTime) {
      const block = await getBlock(this.client, { blockNumber: log.blockNumber });
      blockTime = new Date(Number(block.timestamp) * 1000);
      blockTimes.set(log.blockNumber, blockTime);
    }
    const args = log.args as ProxyLogArgs;
    return {
      chainId: this.chainId,
      network: this.options.network,
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      blockTimestamp: blockTime,
      paymentReference: findReferenceOfTopic(transaction.input, args.paymentReference),
      tokenAddress: args.tokenAddress,
      to: args.to,
      amount: args.amount,
      from: transaction.from,
    };
  }
}

interface ProxyLogArgs {
  tokenAddress?: Hex;
  to: Hex;
  amount: bigint;
  /** keccak256 of the reference: an indexed `bytes` leaves only its hash in the log. */
  paymentReference: Hex;
}

interface ProxyLog {
  transactionHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  args: unknown;
}
