import { Common, Hardfork, Sepolia } from "@ethereumjs/common";
import { createLegacyTx } from "@ethereumjs/tx";
import { Account, bytesToHex, createAddressFromString, hexToBytes } from "@ethereumjs/util";
import { createVM, runTx, type VM } from "@ethereumjs/vm";
import { type Address, decodeErrorResult, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";

/** A log as viem's decodeEventLog reads it. */
export interface TestLog {
  address: Address;
  topics: [Hex, ...Hex[]];
  data: Hex;
}

/** What one executed transaction left behind. */
export interface TestReceipt {
  /** The hash a wallet would report for the transaction. */
  hash: Hex;
  logs: TestLog[];
  /** Wei the sender paid for gas. */
  gasCost: bigint;
  createdAddress: Address | undefined;
}

/** A funded account that signs its own transactions. */
export interface TestAccount {
  address: Address;
  privateKey: Hex;
}

const gasPrice = 10n ** 9n;

/** The revert reason when the revert data carries one (Error(string), Panic(uint256)), else the raw data. */
function describeRevert(data: Hex): string {
  try {
    const { errorName, args } = decodeErrorResult({ abi: [], data });
    return `${errorName}(${(args ?? []).map(String).join(", ")})`;
  } catch {
    return data;
  }
}
const gasLimit = 8_000_000n;

/** An in-process EVM (Sepolia rules, Cancun) where tests deploy contracts and send transactions. */
export class TestChain {
  private constructor(
    private readonly vm: VM,
    private readonly common: Common,
  ) {}

  /** A fresh chain with no accounts. */
  static async create(): Promise<TestChain> {
    const common = new Common({ chain: Sepolia, hardfork: Hardfork.Cancun });
    return new TestChain(await createVM({ common }), common);
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
  async send(
    from: TestAccount,
    tx: { to?: Address | undefined; data: Hex; value?: bigint },
  ): Promise<TestReceipt> {
    const { hash, result } = await this.run(from, tx);
    if (result.execResult.exceptionError) {
      const revert = bytesToHex(result.execResult.returnValue) as Hex;
      throw new Error(
        `transaction${tx.to ? ` to ${tx.to}` : ""} reverted (${result.execResult.exceptionError.error}): ${describeRevert(revert)}`,
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
      createdAddress: result.createdAddress ? (result.createdAddress.toString() as Address) : undefined,
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

  /** Deploys creation code (constructor arguments appended) and returns the new address. */
  async deploy(from: TestAccount, creationCode: Hex): Promise<Address> {
    const receipt = await this.send(from, { data: creationCode });
    if (!receipt.createdAddress) throw new Error("deployment created no contract");
    return receipt.createdAddress;
  }

  /** Runs a read-only call and returns its raw result. */
  async call(to: Address, data: Hex): Promise<Hex> {
    const result = await this.vm.evm.runCall({
      to: createAddressFromString(to),
      data: hexToBytes(data),
      gasLimit,
    });
    if (result.execResult.exceptionError)
      throw new Error(`call reverted: ${result.execResult.exceptionError.error}`);
    return bytesToHex(result.execResult.returnValue) as Hex;
  }

  private async run(from: TestAccount, tx: { to?: Address | undefined; data: Hex; value?: bigint }) {
    const sender = await this.vm.stateManager.getAccount(createAddressFromString(from.address));
    const signed = createLegacyTx(
      {
        nonce: sender?.nonce ?? 0n,
        gasPrice,
        gasLimit,
        ...(tx.to ? { to: tx.to } : {}),
        value: tx.value ?? 0n,
        data: tx.data,
      },
      { common: this.common },
    ).sign(hexToBytes(from.privateKey));
    const result = await runTx(this.vm, { tx: signed, skipBlockGasLimitValidation: true });
    return { hash: bytesToHex(signed.hash()) as Hex, result };
  }
}
