import { setTimeout as delay } from "node:timers/promises";
import { type Address, createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sepolia } from "viem/chains";
import { startLocalChain } from "../../src/chain/local/local-chain.ts";
import { createServer, sampleCredentials } from "../../src/server/index.ts";
import { transactionValueToBigInt } from "../../src/wire/transaction-value.ts";

const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

interface PayTransaction {
  to: string;
  data: string;
  value: Parameters<typeof transactionValueToBigInt>[0];
}

/**
 * Milliseconds from each payment's block (its receipt, on anvil that mines each transaction as it
 * arrives) to the moment `GET /v2/request/{id}` answers it paid: `payments` requests of 1 FAU,
 * each paid in turn with the calldata the server answers, by a server started as `--chain`
 * starts it (its default poll interval).
 */
export async function measureChainDetection(payments: number): Promise<number[]> {
  const chain = await startLocalChain();
  const server = createServer({ chain: { rpcUrl: chain.rpcUrl, network: "sepolia" } });
  const running = await server.listen({ port: 0 });
  try {
    const account = privateKeyToAccount(chain.accounts[1]?.privateKey as Hex);
    const wallet = createWalletClient({ chain: sepolia, transport: http(chain.rpcUrl), account });
    const client = createPublicClient({ chain: sepolia, transport: http(chain.rpcUrl) });
    // biome-ignore lint/suspicious/noExplicitAny: the answers are read as the service documents them
    const call = async (method: string, path: string, body?: unknown): Promise<any> => {
      const answer = await fetch(`${running.url}${path}`, {
        method,
        headers: { "x-api-key": sampleCredentials.apiKey, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
      return answer.json();
    };
    const times: number[] = [];
    for (let payment = 0; payment < payments; payment++) {
      const { requestId } = await call("POST", "/v2/request", {
        payee,
        amount: "1",
        invoiceCurrency: "FAU-sepolia",
        paymentCurrency: "FAU-sepolia",
      });
      const { transactions } = (await call("GET", `/v2/request/${requestId}/pay`)) as {
        transactions: PayTransaction[];
      };
      let minedAt = 0;
      for (const transaction of transactions) {
        const hash = await wallet.sendTransaction({
          to: transaction.to as Address,
          data: transaction.data as Hex,
          value: transactionValueToBigInt(transaction.value),
        });
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
        if (receipt.status !== "success") throw new Error(`a payment transaction of ${requestId} reverted`);
        minedAt = performance.now();
      }
      for (;;) {
        if ((await call("GET", `/v2/request/${requestId}`)).hasBeenPaid === true) break;
        if (performance.now() - minedAt > 30_000) throw new Error(`${requestId} was not detected in 30 s`);
        await delay(5);
      }
      times.push(performance.now() - minedAt);
    }
    return times;
  } finally {
    await running.close();
    await chain.stop();
  }
}
