import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sepolia } from "viem/chains";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { erc20ApproveAbi, erc20FeeProxyAbi, findToken, type TokenRecord } from "../../../src/chain/index.ts";
import type { LocalChain } from "../../../src/chain/local/local-chain.ts";
import { sampleCredentials } from "../../../src/server/index.ts";
import { createMemoryStore } from "../../../src/server/store/memory-store.ts";
import type { Store } from "../../../src/server/store/store.ts";
import { transactionValueToBigInt } from "../../../src/wire/transaction-value.ts";
import { describeWithAnvil, sharedLocalChain } from "../../support/anvil.ts";
import { payee, type TestServer } from "../helpers.ts";
import { startWebhookServer } from "../webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../webhooks/receiver.ts";

// The whole loop on a real chain: a wallet sends the calldata the server answers to anvil, the
// server sees the proxy's log and records the payment, and the app gets its signed webhook.

interface WireTransaction {
  to: string;
  data: string;
  value: Parameters<typeof transactionValueToBigInt>[0];
}

const fau = findToken("FAU-sepolia") as TokenRecord;
const bob = getAddress("0x00000000000000000000000000000000000b0b0b");

describeWithAnvil("payments on a local chain, detected from the proxies' logs", () => {
  let chain: LocalChain;
  let store: Store;
  let receiver: Receiver;
  let server: TestServer;
  const startServer = () =>
    startWebhookServer({
      endpoints: [{ url: receiver.url }],
      store,
      chain: { rpcUrl: chain.rpcUrl, network: "sepolia", pollIntervalMs: 50 },
    });

  beforeAll(async () => {
    chain = await sharedLocalChain();
    store = createMemoryStore();
    receiver = await startReceiver();
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** A wallet of one of the funded accounts, as an integrator's page would hold it. */
  const walletOf = (index: number) => {
    const account = privateKeyToAccount(chain.accounts[index]?.privateKey as Hex);
    const wallet = createWalletClient({ chain: sepolia, transport: http(chain.rpcUrl), account });
    const client = createPublicClient({ chain: sepolia, transport: http(chain.rpcUrl) });
    return {
      address: account.address,
      /** Sends each transaction as given and answers the receipts; every one must succeed. */
      async send(transactions: WireTransaction[]) {
        const receipts = [];
        for (const tx of transactions) {
          const hash = await wallet.sendTransaction({
            to: tx.to as Address,
            data: tx.data as Hex,
            value: transactionValueToBigInt(tx.value),
          });
          const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
          expect(receipt.status).toBe("success");
          receipts.push(receipt);
        }
        return receipts;
      },
    };
  };

  const createRequest = async (amount: string) => {
    const created = await server.call("POST", "/v2/request", {
      body: { payee, amount, invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
    });
    expect(created.status).toBe(201);
    return created.body as { requestId: string; paymentReference: Hex };
  };

  /** The request once detection has recorded `count` payments on it. */
  const afterPayments = (requestId: string, count: number) =>
    vi.waitFor(
      async () => {
        const answer = await server.call("GET", `/v2/request/${requestId}`);
        expect(answer.body.payments).toHaveLength(count);
        return answer.body;
      },
      { timeout: 30_000, interval: 50 },
    );

  /** Waits until detection has read the chain past `block`. */
  const readPast = (block: bigint) =>
    vi.waitFor(
      async () => {
        const cursor = await store.chainCursors.get(String(chain.chainId));
        expect(BigInt(cursor?.lastBlock ?? -1)).toBeGreaterThanOrEqual(block);
      },
      { timeout: 30_000, interval: 50 },
    );

  /** The signed webhooks about one request, once every delivery settled. */
  const webhooksFor = async (requestId: string) => {
    await server.server.webhooks.settled();
    const payloads = [];
    for (const webhook of receiver.received) {
      expect(hasValidSignature(webhook, sampleCredentials.webhookSecret)).toBe(true);
      const payload = JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>;
      if (payload.requestId === requestId) payloads.push(payload);
    }
    return payloads;
  };

  /** A direct ERC20FeeProxy payment of `amount` FAU to `to` under `reference`, approval included. */
  const proxyPayment = (
    reference: Hex,
    amount: string,
    to: Address = getAddress(payee),
  ): WireTransaction[] => [
    {
      to: fau.address,
      data: encodeFunctionData({
        abi: erc20ApproveAbi,
        functionName: "approve",
        args: [chain.contracts.erc20FeeProxy, parseUnits(amount, 18)],
      }),
      value: 0,
    },
    {
      to: chain.contracts.erc20FeeProxy,
      data: encodeFunctionData({
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [fau.address, to, parseUnits(amount, 18), reference, 0n, chain.accounts[0]?.address as Address],
      }),
      value: 0,
    },
  ];

  it("sees a wallet pay a request with the calldata the server answered: paid with that transaction, and a signed payment.confirmed carrying it", async () => {
    const { requestId, paymentReference } = await createRequest("12.5");
    const payer = walletOf(1);
    const pay = await server.call("GET", `/v2/request/${requestId}/pay?wallet=${payer.address}`);
    expect(pay.status).toBe(200);
    const receipts = await payer.send(pay.body.transactions);
    const payment = receipts.at(-1);

    const paid = await afterPayments(requestId, 1);
    expect(paid).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      txHash: payment?.transactionHash,
      payments: [{ amount: "12.5", txHash: payment?.transactionHash }],
    });
    const block = await createPublicClient({ transport: http(chain.rpcUrl) }).getBlock({
      blockNumber: payment?.blockNumber as bigint,
    });
    const webhooks = await webhooksFor(requestId);
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({
      event: "payment.confirmed",
      requestId,
      paymentReference,
      amount: "12.5",
      totalAmountPaid: "12.5",
      txHash: payment?.transactionHash,
      network: "sepolia",
      payerAddress: payer.address,
    });
    const recorded = await server.call("GET", `/sandbox/requests/${requestId}`);
    expect(recorded.body.payments).toEqual([
      {
        outcome: "paid",
        amount: "12.5",
        txHash: payment?.transactionHash,
        subStatus: null,
        recordedAt: new Date(Number(block.timestamp) * 1000).toISOString(),
      },
    ]);
  });

  it("records a payment of part of the amount as partial, with payment.partial", async () => {
    const { requestId, paymentReference } = await createRequest("10");
    const [, payment] = await walletOf(2).send(proxyPayment(paymentReference, "4"));
    const partial = await afterPayments(requestId, 1);
    expect(partial).toMatchObject({ hasBeenPaid: false, status: "partially_paid" });
    const webhooks = await webhooksFor(requestId);
    expect(webhooks).toMatchObject([
      {
        event: "payment.partial",
        amount: "4",
        totalAmountPaid: "4",
        expectedAmount: "10",
        txHash: payment?.transactionHash,
      },
    ]);
  });

  it("changes nothing for a transfer whose reference names no request, or that pays someone else", async () => {
    const { requestId, paymentReference } = await createRequest("3");
    const before = receiver.received.length;
    const payer = walletOf(3);
    const [, unknown] = await payer.send(proxyPayment("0x0123456789abcdef", "1"));
    const [, elsewhere] = await payer.send(proxyPayment(paymentReference, "3", bob));
    await readPast(elsewhere?.blockNumber as bigint);

    const handled = await Promise.all(
      [unknown, elsewhere].map((receipt) =>
        store.chainLogs.get(`${chain.chainId}:${receipt?.transactionHash}:${receipt?.logs.at(-1)?.logIndex}`),
      ),
    );
    expect(handled.map((log) => log?.requestId)).toEqual([null, null]);
    const request = await server.call("GET", `/v2/request/${requestId}`);
    expect(request.body).toMatchObject({ hasBeenPaid: false, status: "pending", payments: [] });
    await server.server.webhooks.settled();
    expect(receiver.received.length).toBe(before);
    // The log indexes the reference's hash only: the server found the reference in the calldata.
    expect(unknown?.logs.at(-1)?.topics[1]).toBe(keccak256("0x0123456789abcdef"));
  });

  it("neither loses nor repeats a payment across a restart: one sent while it was down is recorded once, earlier ones not again", async () => {
    const early = await createRequest("2");
    const late = await createRequest("5");
    const payer = walletOf(4);
    await payer.send(proxyPayment(early.paymentReference, "2"));
    await afterPayments(early.requestId, 1);
    // Its webhook delivered first: one cut off by the stop would be sent again, as webhooks are.
    await server.server.webhooks.settled();
    await server.close();
    const [, whileDown] = await payer.send(proxyPayment(late.paymentReference, "5"));
    server = await startServer();

    const paid = await afterPayments(late.requestId, 1);
    expect(paid).toMatchObject({ status: "paid", txHash: whileDown?.transactionHash });
    await readPast(whileDown?.blockNumber as bigint);
    expect((await server.call("GET", `/v2/request/${early.requestId}`)).body.payments).toHaveLength(1);
    expect((await webhooksFor(late.requestId)).map((webhook) => webhook.event)).toEqual([
      "payment.confirmed",
    ]);
    expect((await webhooksFor(early.requestId)).map((webhook) => webhook.event)).toEqual([
      "payment.confirmed",
    ]);
  });

  it("detects a batch payout's payments the same way, each under its own reference", async () => {
    const payer = walletOf(1);
    const since = (await store.listEvents()).at(-1)?.sequence ?? 0;
    const batch = await server.call("POST", "/v2/payouts/batch", {
      body: {
        requests: [
          { payee, amount: "1.5", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
          {
            payee: bob,
            amount: "0.25",
            invoiceCurrency: "ETH-sepolia-sepolia",
            paymentCurrency: "ETH-sepolia-sepolia",
          },
        ],
        payer: payer.address,
      },
    });
    expect(batch.status).toBe(201);
    const receipts = await payer.send([
      ...batch.body.ERC20ApprovalTransactions,
      batch.body.batchPaymentTransaction,
    ]);
    const batchHash = receipts.at(-1)?.transactionHash;
    const created = (await store.listEvents(since)).filter((event) => event.type === "request.created");
    expect(created).toHaveLength(2);
    for (const event of created) {
      const paid = await afterPayments(event.data.requestId as string, 1);
      expect(paid).toMatchObject({ hasBeenPaid: true, status: "paid", txHash: batchHash });
    }
  });
});
