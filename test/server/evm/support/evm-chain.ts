import { Common, Hardfork, Sepolia } from "@ethereumjs/common";
import { createLegacyTx } from "@ethereumjs/tx";
import { Account, bytesToHex, createAddressFromString, hexToBytes } from "@ethereumjs/util";
import { createVM, runTx, type VM } from "@ethereumjs/vm";
import { type Address, decodeErrorResult, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import type { TestAccount, TestReceipt } from "../../../chain/support/test-chain.ts";

/** What one executed transaction left behind, with the hash a wallet would report for it. */
export interface SentTransaction extends Omit<TestReceipt, "createdAddress"> {
  hash: Hex;
}

const gasPrice = 10n ** 9n;
const gasLimit = 8_000_000n;

/** The revert reason when the revert data carries one (Error(string), Panic(uint256)), else the raw data. */
function describeRevert(data: Hex): string {
  try {
    const { errorName, args } = decodeErrorResult({ abi: [], data });
    return `${errorName}(${(args ?? []).map(String).join(", ")})`;
  } catch {
    return data;
  }
}

/**
 * An in-process Sepolia EVM (Cancun rules) like test/chain's TestChain, plus what a server
 * scenario needs on top: the hash of every sent transaction, and contracts constructed at a
 * chosen address (the official ones of the server's contract and token tables).
 */
export class EvmChain {
  private constructor(
    private readonly vm: VM,
    private readonly common: Common,
  ) {}

  static async create(): Promise<EvmChain> {
    const common = new Common({ chain: Sepolia, hardfork: Hardfork.Cancun });
    return new EvmChain(await createVM({ common }), common);
  }

  /** A new account derived from `seed`, holding `wei`. */
  async createAccount(seed: number, wei: bigint): Promise<TestAccount> {
    const privateKey: Hex = `0x${seed.toString(16).padStart(64, "0")}`;
    const address = privateKeyToAddress(privateKey);
    await this.vm.stateManager.putAccount(createAddressFromString(address), new Account(0n, wei));
    return { address, privateKey };
  }

  /** The native balance of an address, in wei. */
  async balanceOf(address: Address): Promise<bigint> {
    const account = await this.vm.stateManager.getAccount(createAddressFromString(address));
    return account?.balance ?? 0n;
  }

  /** Signs and runs a transaction from `from`; throws with the revert data if it fails. */
  async send(from: TestAccount, tx: { to: Address; data: Hex; value?: bigint }): Promise<SentTransaction> {
    const { hash, result } = await this.run(from, tx);
    if (result.execResult.exceptionError) {
      throw new Error(
        `transaction to ${tx.to} reverted (${result.execResult.exceptionError.error}): ${describeRevert(bytesToHex(result.execResult.returnValue) as Hex)}`,
      );
    }
    return {
      hash,
      logs: result.receipt.logs.map(([address, topics, data]) => ({
        address: bytesToHex(address) as Address,
        topics: topics.map((topic) => bytesToHex(topic) as Hex) as [Hex, ...Hex[]],
        data: bytesToHex(data) as Hex,
      })),
      gasCost: result.amountSpent,
    };
  }

  /**
   * Constructs a contract at `at`, as if `deployer` had deployed it there: the creation code
   * (constructor arguments appended) runs as a call to `at`, so the constructor writes `at`'s
   * storage with `deployer` as msg.sender, then the runtime code it returns is installed there.
   */
  async constructAt(deployer: TestAccount, at: Address, creationCode: Hex): Promise<void> {
    const address = createAddressFromString(at);
    await this.vm.stateManager.putCode(address, hexToBytes(creationCode));
    const { result } = await this.run(deployer, { to: at, data: "0x" });
    if (result.execResult.exceptionError) {
      throw new Error(`constructor at ${at} reverted: ${result.execResult.exceptionError.error}`);
    }
    await this.vm.stateManager.putCode(address, result.execResult.returnValue);
  }

  /** Runs a read-only call and returns its raw result. */
  async call(to: Address, data: Hex): Promise<Hex> {
    const result = await this.vm.evm.runCall({
      to: createAddressFromString(to),
      data: hexToBytes(data),
      gasLimit,
    });
    if (result.execResult.exceptionError)
      throw new Error(`call to ${to} reverted: ${result.execResult.exceptionError.error}`);
    return bytesToHex(result.execResult.returnValue) as Hex;
  }

  private async run(from: TestAccount, tx: { to: Address; data: Hex; value?: bigint }) {
    const sender = await this.vm.stateManager.getAccount(createAddressFromString(from.address));
    const signed = createLegacyTx(
      { nonce: sender?.nonce ?? 0n, gasPrice, gasLimit, to: tx.to, value: tx.value ?? 0n, data: tx.data },
      { common: this.common },
    ).sign(hexToBytes(from.privateKey));
    const result = await runTx(this.vm, { tx: signed, skipBlockGasLimitValidation: true });
    return { hash: bytesToHex(signed.hash()) as Hex, result };
  }
}
