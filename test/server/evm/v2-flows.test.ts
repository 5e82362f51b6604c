import { getAddress, type Hex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getRecurringPaymentProxy } from "../../../src/chain/index.ts";
import { sampleCredentials } from "../../../src/server/index.ts";
import { readTypedData } from "../../../src/wire/typed-data.ts";
import { erc20ProxyEvents, ethereumProxyEvents } from "../../chain/support/proxy-events.ts";
import { apiKey, payee, type TestServer } from "../helpers.ts";
import { startWebhookServer } from "../webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { deploySepoliaContracts, type SepoliaDeployment } from "./support/sepolia-deployment.ts";
import { mirrorPayerBalances } from "./support/wallet-book.ts";

// The flows real applications run against the service, replayed end to end against the reference
// server with its default configuration (as `npm start` runs it, on a clock that stands still):
// calldata the server answers is sent unchanged to an EVM holding the official Sepolia contracts,
// and every webhook goes to a real receiver on this machine, signed with the sandbox secret.

let server: TestServer;
let receiver: Receiver;
let deployment: SepoliaDeployment;
beforeAll(async () => {
  receiver = await startReceiver();
  server = await startWebhookServer({ endpoints: [{ url: receiver.url }] });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(async () => {
  deployment = await deploySepoliaContracts();
  await mirrorPayerBalances(server, deployment);
});

/** The payloads the receiver got for one request, after every pending delivery settled. */
async function webhooksFor(requestId: string): Promise<Record<string, unknown>[]> {
  await server.server.webhooks.settled();
  for (const webhook of receiver.received) {
    expect(hasValidSignature(webhook, sampleCredentials.webhookSecret)).toBe(true);
  }
  return receiver.received
    .map((webhook) => JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>)
    .filter((payload) => payload.requestId === requestId);
}

/** What the chain's watcher does in the sandbox: record the payment it saw, by its hash. */
async function recordOnChainPayment(requestId: string, txHash: Hex) {
  const recorded = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
    body: { outcome: "paid", txHash },
  });
  expect(recorded.status).toBe(201);
}

describe("an invoice: create, read its status, pay it on chain, then paid and announced", () => {
  it("createRequest -> getRequestStatus -> getPayCalldata executed in the EVM -> paid + payment.confirmed", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf } = deployment;
    const created = await server.call("POST", "/v2/request", {
      body: {
        payee,
        amount: "12.5",
        invoiceCurrency: "FAU-sepolia",
        paymentCurrency: "FAU-sepolia",
        reference: "INV-2026-0412",
      },
    });
    expect(created.status).toBe(201);
    const { requestId, paymentReference } = created.body;

    const before = await server.call("GET", `/v2/request/${requestId}`);
    expect(before.body).toMatchObject({ hasBeenPaid: false, status: "pending", txHash: null, payments: [] });

    const pay = await server.call("GET", `/v2/request/${requestId}/pay?wallet=${payer.address}`);
    expect(pay.body.metadata).toMatchObject({ needsApproval: true, approvalTransactionIndex: 0 });
    const [, payment] = await sendServerTransactions(chain, payer, pay.body.transactions);
    expect(erc20ProxyEvents(payment?.logs ?? [], contracts.erc20FeeProxy)).toMatchObject([
      {
        tokenAddress: fau.address,
        to: getAddress(payee),
        amount: 12_500_000_000_000_000_000n,
        feeAmount: 0n,
      },
    ]);
    expect(erc20ProxyEvents(payment?.logs ?? [], contracts.erc20FeeProxy)[0]?.referenceTopic).toBe(
      keccak256(paymentReference),
    );
    expect(await fauBalanceOf(getAddress(payee))).toBe(12_500_000_000_000_000_000n);

    await recordOnChainPayment(requestId, payment?.hash as Hex);
    const after = await server.call("GET", `/v2/request/${requestId}`);
    expect(after.body).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      isListening: false,
      txHash: payment?.hash,
      payments: [{ amount: "12.5", txHash: payment?.hash }],
      reference: "INV-2026-0412",
    });
    const [confirmed, ...others] = await webhooksFor(requestId);
    expect(others).toEqual([]);
    expect(confirmed).toMatchObject({
      event: "payment.confirmed",
      requestId,
      requestID: requestId,
      paymentReference,
      amount: "12.5",
      totalAmountPaid: "12.5",
      expectedAmount: "12.5",
      txHash: payment?.hash,
      network: "sepolia",
      paymentCurrency: "FAU",
    });
    const found = await server.call("GET", `/v2/payments?reference=INV-2026-0412`);
    expect(found.body.payments).toMatchObject([{ sourceTxHash: payment?.hash, type: "direct" }]);
  });
});

describe("the tutorial's direct payout", () => {
  // The tutorial backend posts four fields with X-Api-Key, then its page sends every transaction
  // in order with value BigInt(tx.value.hex): every value must be a BigNumber object.
  const tutorialPayout = async (currency: string, amount: string) => {
    const response = await fetch(`${server.url}/v2/payouts`, {
      method: "POST",
      headers: { "X-Api-Key": apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({ payee, amount, invoiceCurrency: currency, paymentCurrency: currency }),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as {
      requestId: string;
      paymentReference: Hex;
      transactions: { to: Hex; data: Hex; value: { hex: string } }[];
      metadata: Record<string, unknown>;
    };
  };
  const sendAsTheTutorialPage = async (transactions: { to: Hex; data: Hex; value: { hex: string } }[]) => {
    const receipts = [];
    for (const tx of transactions) {
      receipts.push(
        await deployment.chain.send(deployment.payer, {
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value.hex),
        }),
      );
    }
    return receipts;
  };

  it("pays 0.2 ETH on Sepolia through the EthereumFeeProxy, then the request is paid and announced", async () => {
    const { contracts, chain } = deployment;
    const payout = await tutorialPayout("ETH-sepolia-sepolia", "0.2");
    expect(payout.metadata).toMatchObject({ stepsRequired: 1, paymentTransactionIndex: 0 });
    const payeeBefore = await chain.balanceOf(getAddress(payee));
    const [payment] = await sendAsTheTutorialPage(payout.transactions);
    expect(ethereumProxyEvents(payment?.logs ?? [], contracts.ethereumFeeProxy)).toMatchObject([
      {
        to: getAddress(payee),
        amount: 200_000_000_000_000_000n,
        referenceTopic: keccak256(payout.paymentReference),
      },
    ]);
    expect((await chain.balanceOf(getAddress(payee))) - payeeBefore).toBe(200_000_000_000_000_000n);

    await recordOnChainPayment(payout.requestId, payment?.hash as Hex);
    expect((await server.call("GET", `/v2/request/${payout.requestId}`)).body.hasBeenPaid).toBe(true);
    expect(await webhooksFor(payout.requestId)).toMatchObject([
      { event: "payment.confirmed", requestId: payout.requestId, txHash: payment?.hash },
    ]);
  });

  it("pays 3 FAU: the approval, then the payment, both sent as they come", async () => {
    const { contracts, fauBalanceOf } = deployment;
    const payout = await tutorialPayout("FAU-sepolia", "3");
    expect(payout.transactions).toHaveLength(2);
    const [, payment] = await sendAsTheTutorialPage(payout.transactions);
    expect(erc20ProxyEvents(payment?.logs ?? [], contracts.erc20FeeProxy)).toMatchObject([
      { amount: 3_000_000_000_000_000_000n, referenceTopic: keccak256(payout.paymentReference) },
    ]);
    expect(await fauBalanceOf(getAddress(payee))).toBe(3_000_000_000_000_000_000n);
  });
});

describe("a recurring payout from creation through the permit signature to its executions", () => {
  it("createPayout with recurrence -> approval executed -> permit signed -> active -> executions announced", async () => {
    const { chain, payer, fau, fauAllowance } = deployment;
    const proxy = getRecurringPaymentProxy("sepolia") as Hex;
    const created = await server.call("POST", "/v2/payouts", {
      body: {
        payee,
        amount: "10",
        invoiceCurrency: "FAU-sepolia",
        paymentCurrency: "FAU-sepolia",
        recurrence: {
          startDate: "2026-04-12T00:00:00.000Z",
          frequency: "WEEKLY",
          totalPayments: 3,
          payer: payer.address,
        },
      },
    });
    expect(created.status).toBe(201);
    const { id, transactions, recurringPaymentPermit } = created.body;

    // As the invoicing app does: send transactions[0] (the approval), then sign the permit.
    await sendServerTransactions(chain, payer, transactions.slice(0, 1));
    expect(await fauAllowance(payer.address, proxy)).toBe(30_000_000_000_000_000_000n);
    expect(recurringPaymentPermit.values).toMatchObject({ token: fau.address, totalExecutions: 3 });

    const wrongWallet = privateKeyToAccount(`0x${"7".repeat(64)}`);
    const refused = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      body: {
        permitSignature: await wrongWallet.signTypedData(readTypedData(recurringPaymentPermit) as never),
      },
    });
    expect(refused.status).toBe(400);
    const signer = privateKeyToAccount(payer.privateKey);
    const signed = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      body: { permitSignature: await signer.signTypedData(readTypedData(recurringPaymentPermit) as never) },
    });
    expect(signed.status).toBe(201);
    expect(signed.body.status).toBe("active");

    // The service's scheduler executes the payments; in the sandbox, its API does.
    const hashes: Hex[] = [`0x${"a1".repeat(32)}`, `0x${"a2".repeat(32)}`, `0x${"a3".repeat(32)}`];
    for (const txHash of hashes) {
      const executed = await server.call("POST", `/sandbox/recurring-payments/${id}/executions`, {
        body: { outcome: "success", txHash },
      });
      expect(executed.status).toBe(201);
    }
    const progress = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(progress.body).toMatchObject({ status: "completed", processedPayments: 3, totalPayments: 3 });
    expect(progress.body.payments.map((payment: { txHash: string }) => payment.txHash)).toEqual(hashes);

    const [first] = progress.body.requests;
    for (const [index, period] of progress.body.requests.entries()) {
      const webhooks = await webhooksFor(period.requestId);
      // Each later period is a new request, announced as recurring from the first before it is paid.
      expect(webhooks.map((webhook) => webhook.event)).toEqual(
        index === 0 ? ["payment.confirmed"] : ["request.recurring", "payment.confirmed"],
      );
      if (index > 0) expect(webhooks[0]).toMatchObject({ originalRequestId: first.requestId });
      const confirmed = webhooks.at(-1);
      expect(confirmed).toMatchObject({
        event: "payment.confirmed",
        recurringPayment: { id },
        txHash: hashes[index],
        amount: "10",
      });
      expect((await server.call("GET", `/v2/request/${period.requestId}`)).body.hasBeenPaid).toBe(true);
    }
    const search = await server.call("GET", `/v2/payments?type=recurring&walletAddress=${payee}`);
    expect(
      search.body.payments.filter(
        (payment: { recurringPaymentId: string }) => payment.recurringPaymentId === id,
      ),
    ).toHaveLength(3);
  });
});

describe("a cross-chain payment: pay calldata, signed intent, paid", () => {
  it("getPayCalldata with chain and token -> intent and permit signed by the payer -> sendPaymentIntent -> paid + payment.confirmed", async () => {
    const wallet = privateKeyToAccount(`0x${"5".repeat(64)}`);
    const created = await server.call("POST", "/v2/request", {
      body: { payee, amount: "40", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    });
    const { requestId } = created.body;
    const routes = await server.call("POST", "/sandbox/wallets", {
      body: { address: wallet.address, balances: [{ currency: "USDC-optimism", amount: "100" }] },
    });
    expect(routes.status).toBe(200);
    const offered = await server.call("GET", `/v2/request/${requestId}/routes?wallet=${wallet.address}`);
    const route = offered.body.routes.find(
      (candidate: { id: string }) => candidate.id !== "REQUEST_NETWORK_PAYMENT",
    );
    expect(route).toMatchObject({ chain: "OPTIMISM", token: "USDC" });

    const pay = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?chain=${route.chain}&token=${route.token}&wallet=${wallet.address}`,
    );
    const intent = readTypedData(pay.body.paymentIntent);
    const permit = readTypedData(pay.body.approvalPermitPayload);
    const submitted = await server.call("POST", `/v2/request/payment-intents/${pay.body.paymentIntentId}`, {
      body: {
        signedPaymentIntent: {
          signature: await wallet.signTypedData(intent as never),
          nonce: String(intent.message.nonce),
          deadline: String(intent.message.deadline),
        },
        signedApprovalPermit: {
          signature: await wallet.signTypedData(permit as never),
          nonce: String(permit.message.nonce),
          deadline: String(permit.message.deadline),
        },
      },
    });
    expect(submitted.status).toBe(200);

    const status = await server.call("GET", `/v2/request/${requestId}`);
    expect(status.body).toMatchObject({ hasBeenPaid: true, status: "paid", payments: [{ amount: "40" }] });
    expect(await webhooksFor(requestId)).toMatchObject([
      {
        event: "payment.confirmed",
        requestId,
        amount: "40",
        network: "base",
        paymentCurrency: "USDC",
        txHash: status.body.txHash,
      },
    ]);
  });
});
