import { getAddress, type Hex, keccak256 } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, expect, it } from "vitest";
import { sampleCredentials } from "../../src/server/index.ts";
import { erc20ProxyEvents } from "../chain/support/proxy-events.ts";
import { sendServerTransactions } from "../server/evm/support/send-server-transactions.ts";
import { deploySepoliaContracts } from "../server/evm/support/sepolia-deployment.ts";
import { mirrorPayerBalances } from "../server/evm/support/wallet-book.ts";
import { fauSepolia, registerPayeeDestination } from "../server/payee-destination-support.ts";
import { startWebhookServer } from "../server/webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../server/webhooks/receiver.ts";
import { describeInBrowser, saveScreenshot, shownDetails, textOf, useBrowserAndServer } from "./browser.ts";
import { sentTransactions } from "./fake-wallet.ts";

// A payee registers a destination; the merchant creates a secure payment to it by destinationId;
// the payer opens the hosted page in Chromium and pays with the page's transactions, which an EVM
// holding the official Sepolia contracts executes; the payment is recorded by its hash and
// announced by a signed webhook.

let receiver: Receiver | undefined;
const live = useBrowserAndServer(async () => {
  receiver = await startReceiver();
  return startWebhookServer({ endpoints: [{ url: receiver.url }] });
});
afterAll(() => receiver?.close());

describeInBrowser("a secure payment to a payee destination, paid in the browser", () => {
  it("registered destination -> destinationId link -> page checks and pays -> EVM executes -> paid, 409 and payment.confirmed", async () => {
    const server = live.server;
    const deployment = await deploySepoliaContracts();
    const { chain, payer, contracts, fau, fauBalanceOf } = deployment;
    await mirrorPayerBalances(server, deployment);

    const payeeWallet = privateKeyToAccount(generatePrivateKey());
    const destination = await registerPayeeDestination(server, payeeWallet, fauSepolia);
    const created = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ destinationId: destination.destinationId, amount: "7.5" }], reference: "DEST-7" },
    });
    expect(created.status).toBe(201);
    const [requestId] = created.body.requestIds as string[];
    const request = await server.call("GET", `/sandbox/requests/${requestId}`);
    const paymentReference = request.body.paymentReference as Hex;

    const payerPage = await live.openPage({ account: payer.address, chainId: 1 });
    const { page, pageErrors } = payerPage;
    await page.goto(created.body.securePaymentUrl);
    await page.getByRole("heading", { level: 1, name: "Review and pay" }).waitFor();
    expect(await shownDetails(page)).toMatchObject({
      "Pay to": payeeWallet.address,
      Amount: "7.5 FAU",
      Total: "7.5 FAU",
      "Payment reference": paymentReference,
      Network: "Sepolia (chain ID 11155111)",
      "Merchant reference": "DEST-7",
    });
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.locator("#check-result .notice").waitFor();
    expect(await textOf(page, "#check-result")).toBe(
      "Checks passed\n\nEvery transaction goes to an official Request Network contract on Sepolia and pays exactly the payee, amount, fee and payment reference shown above.",
    );
    expect(await page.locator(".step-label").allInnerTexts()).toEqual([
      "Allow the ERC20FeeProxy contract to spend 7.5 FAU",
      `Pay 7.5 FAU to ${payeeWallet.address}`,
    ]);
    await page.locator("#pay-button").click();
    await page.getByText("Payment sent", { exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
    await saveScreenshot(page, "paid-to-destination");

    // What the page had the wallet send, executed in the EVM exactly as sent.
    const sent = await sentTransactions(page);
    expect(sent.map((transaction) => transaction.to.toLowerCase())).toEqual([
      fau.address.toLowerCase(),
      contracts.erc20FeeProxy.toLowerCase(),
    ]);
    const receipts = await sendServerTransactions(
      chain,
      payer,
      sent.map(({ to, data, value }) => ({ to, data, value: `0x${value.toString(16)}` })),
    );
    const payment = receipts.at(-1);
    expect(erc20ProxyEvents(payment?.logs ?? [], contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: getAddress(payeeWallet.address),
        amount: 7_500_000_000_000_000_000n,
        paymentReference: keccak256(paymentReference),
        feeAmount: 0n,
        feeAddress: "0x0000000000000000000000000000000000000000",
        referenceTopic: keccak256(paymentReference),
      },
    ]);
    expect(await fauBalanceOf(getAddress(payeeWallet.address))).toBe(7_500_000_000_000_000_000n);

    // The chain's watcher, in the sandbox: the payment is recorded by its hash.
    const recorded = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid", txHash: payment?.hash },
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body.securePayment.status).toBe("completed");
    expect((await server.call("GET", `/v2/secure-payments/${created.body.token}`)).status).toBe(409);

    await server.server.webhooks.settled();
    const received = (receiver as Receiver).received;
    for (const webhook of received)
      expect(hasValidSignature(webhook, sampleCredentials.webhookSecret)).toBe(true);
    const payloads = received
      .map((webhook) => JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>)
      .filter((payload) => payload.requestId === requestId);
    // The link's request also sends its .checkout duplicate.
    expect(payloads.map((payload) => payload.event).sort()).toEqual([
      "payment.confirmed",
      "payment.confirmed.checkout",
    ]);
    expect(payloads.find((payload) => payload.event === "payment.confirmed")).toMatchObject({
      event: "payment.confirmed",
      requestId,
      paymentReference,
      amount: "7.5",
      txHash: payment?.hash,
      network: "sepolia",
      paymentCurrency: "FAU",
    });
  });
});
