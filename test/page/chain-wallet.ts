import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import {
  type Address,
  BaseError,
  createPublicClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  isAddressEqual,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sepolia } from "viem/chains";
import type { LocalChain } from "../../src/chain/local/local-chain.ts";

/** A wallet in the page that really signs, with a funded account of the local chain. */
export interface ChainWallet {
  readonly address: Address;
  /** The hashes of the transactions it sent, in order. */
  readonly sent: Hash[];
}

interface WalletRequest {
  method: string;
  params: unknown[];
}

type WalletAnswer = { result: unknown } | { error: { code: number; message: string } };

const providerScript = fileURLToPath(new URL("./chain-wallet-provider.js", import.meta.url));

/** Reads the page may ask of the chain; anything else a wallet does not forward is refused. */
const forwardedReads = new Set([
  "eth_blockNumber",
  "eth_call",
  "eth_chainId",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByNumber",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_maxPriorityFeePerGas",
]);

const failure = (code: number, message: string): WalletAnswer => ({ error: { code, message } });

/**
 * Installs an EIP-1193 wallet in the page (chain-wallet-provider.js) whose requests run in this
 * process: `eth_sendTransaction` is signed with `privateKey` and sent to the local chain by a
 * viem wallet client, reads go to the chain's node, and switching to another chain than the
 * node's answers 4902 as a wallet that does not know it.
 */
export async function addChainWallet(page: Page, chain: LocalChain, privateKey: Hex): Promise<ChainWallet> {
  const account = privateKeyToAccount(privateKey);
  const transport = http(chain.rpcUrl);
  const signer = createWalletClient({ account, chain: sepolia, transport });
  const node = createPublicClient({ chain: sepolia, transport });
  const sent: Hash[] = [];

  const handle = async ({ method, params }: WalletRequest): Promise<WalletAnswer> => {
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return { result: [account.address] };
      case "wallet_switchEthereumChain": {
        const [{ chainId }] = params as [{ chainId: string }];
        return Number(chainId) === chain.chainId
          ? { result: null }
          : failure(4902, `This wallet does not know chain ${chainId}.`);
      }
      case "eth_sendTransaction": {
        const [request] = params as [{ from: Address; to: Address; data?: Hex; value?: Hex }];
        if (!isAddressEqual(request.from, account.address)) {
          return failure(4100, `This wallet cannot sign for ${request.from}.`);
        }
        const hash = await signer.sendTransaction({
          to: request.to,
          data: request.data,
          value: BigInt(request.value ?? "0x0"),
        });
        sent.push(hash);
        return { result: hash };
      }
      default:
        if (!forwardedReads.has(method)) return failure(4200, `This wallet does not support ${method}.`);
        // biome-ignore lint/suspicious/noExplicitAny: the page's reads are passed through as they came
        return { result: await node.request({ method, params } as any) };
    }
  };

  await page.exposeFunction("__chainWalletRequest", async (request: WalletRequest) => {
    try {
      return await handle(request);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof BaseError ? error.shortMessage : String(error);
      return failure(typeof code === "number" ? code : -32603, message);
    }
  });
  await page.addInitScript({ path: providerScript });
  return { address: account.address, sent };
}
