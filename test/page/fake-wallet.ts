import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** What the test's wallet starts with. */
export interface FakeWalletOptions {
  account: string;
  /** The chain the wallet is on before the page asks it to switch. */
  chainId: number;
  /** How many eth_sendTransaction calls to reject with code 4001 before accepting. */
  rejectSends?: number;
}

/** One EIP-1193 request the page made, as the wallet received it. */
export interface WalletCall {
  method: string;
  params: unknown;
  /** The hash the wallet answered an eth_sendTransaction with; absent when it rejected. */
  hash?: string;
}

const providerScript = fileURLToPath(new URL("./fake-wallet-provider.js", import.meta.url));

/** Installs the test wallet (fake-wallet-provider.js) in every document the page opens. */
export async function addFakeWallet(page: Page, options: FakeWalletOptions): Promise<void> {
  await page.addInitScript({ content: `globalThis.__fakeWalletOptions = ${JSON.stringify(options)};` });
  await page.addInitScript({ path: providerScript });
}

/** Every request the page made to the wallet, in order. */
export function walletCalls(page: Page): Promise<WalletCall[]> {
  return page.evaluate(() => (globalThis as unknown as { __walletCalls: WalletCall[] }).__walletCalls);
}

/** The transactions the page asked the wallet to send, each with the hash it got (if accepted). */
export async function sentTransactions(
  page: Page,
): Promise<{ from: string; to: string; data: string; value: bigint; hash: string | undefined }[]> {
  return (await walletCalls(page))
    .filter((call) => call.method === "eth_sendTransaction")
    .map((call) => {
      const [request] = call.params as { from: string; to: string; data: string; value?: string }[];
      if (!request) throw new Error("eth_sendTransaction without a transaction");
      return { ...request, value: BigInt(request.value ?? "0x0"), hash: call.hash };
    });
}
