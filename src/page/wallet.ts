import {
  type Address,
  BaseError,
  type Chain,
  ChainNotConfiguredError,
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  type Hash,
  type Hex,
  SwitchChainError,
  UserRejectedRequestError,
} from "viem";
import type { NetworkName } from "../chain/index.ts";
import { pageChains } from "./page-chains.ts";

/** The wallet the browser injected (EIP-1193 `window.ethereum`), if any. */
export function findInjectedWallet(): EIP1193Provider | undefined {
  return (globalThis as { ethereum?: EIP1193Provider }).ethereum;
}

/** A connected wallet on one network: it switches to it, sends transactions and waits for them. */
export class PageWallet {
  private readonly chain: Chain;
  private readonly wallet;
  private readonly reader;

  constructor(provider: EIP1193Provider, network: NetworkName) {
    this.chain = pageChains[network];
    this.wallet = createWalletClient({ chain: this.chain, transport: custom(provider) });
    this.reader = createPublicClient({ chain: this.chain, transport: custom(provider) });
  }

  /** Asks the wallet for its accounts (`eth_requestAccounts`) and returns the first. */
  async connect(): Promise<Address> {
    const [account] = await this.wallet.requestAddresses();
    if (!account) throw new BaseError("The wallet shared no account.");
    return account;
  }

  /** Switches the wallet to the link's network, adding the network when the wallet lacks it. */
  async switchChain(): Promise<void> {
    if ((await this.wallet.getChainId()) === this.chain.id) return;
    try {
      await this.wallet.switchChain({ id: this.chain.id });
    } catch (error) {
      // 4902: the wallet does not know the chain yet.
      const unknownChain = error instanceof BaseError && error.walk((cause) => hasCode(cause, 4902));
      if (!unknownChain) throw error;
      await this.wallet.addChain({ chain: this.chain });
      await this.wallet.switchChain({ id: this.chain.id });
    }
  }

  /** Sends one transaction from `account` (`eth_sendTransaction`) and returns its hash. */
  send(account: Address, transaction: { to: Address; data: Hex; value: bigint }): Promise<Hash> {
    return this.wallet.sendTransaction({ account, chain: this.chain, ...transaction });
  }

  /** Waits until the transaction is mined; true when it succeeded, false when it reverted. */
  async confirmed(hash: Hash): Promise<boolean> {
    const receipt = await this.reader.waitForTransactionReceipt({ hash });
    return receipt.status === "success";
  }
}

function hasCode(error: unknown, code: number): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/** Whether the payer declined in the wallet (EIP-1193 code 4001). */
export function isUserRejection(error: unknown): boolean {
  if (error instanceof BaseError) {
    return Boolean(error.walk((cause) => cause instanceof UserRejectedRequestError || hasCode(cause, 4001)));
  }
  return hasCode(error, 4001);
}

/** A short, payer-facing sentence for a wallet error. */
export function describeWalletError(error: unknown): string {
  if (error instanceof SwitchChainError || error instanceof ChainNotConfiguredError) {
    return "The wallet could not switch to the payment's network.";
  }
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
