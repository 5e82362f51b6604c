import { createPublicClient, erc20Abi, getAddress, type Hex, http, parseUnits } from "viem";
import { sepolia } from "viem/chains";
import { afterAll, expect, it } from "vitest";
import { findToken, getOfficialContracts, type TokenRecord } from "../../src/chain/index.ts";
import type { LocalChain } from "../../src/chain/local/local-chain.ts";
import { sampleCredentials } from "../../src/server/index.ts";
import { createSecurePayment } from "../server/helpers.ts";
import { startWebhookServer } from "../server/webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../server/webhooks/receiver.ts";
import { anvilSkipReason, sharedLocalChain } from "../support/anvil.ts";
import { describeUnless } from "../support/describe-unless.ts";
import { browserSkipReason, saveScreenshot, textOf, useBrowserAndServer } from "./browser.ts";
import { addChainWallet } from "./chain-wallet.ts";

// The hosted page pays a link on the local sepolia with a wallet that really signs: the server
// detects the payment on chain, and the page says so once the token check answers it completed.

const fau = findToken("FAU-sepolia") as TokenRecord;
const contracts = getOfficialContracts("sepolia") as NonNullable<ReturnType<typeof getOfficialContracts>>;
/** A payee no other test pays, so that its balance moves by this test's payment alone. */
const payee = getAddress("0x00000000000000000000000000000000000fa1e5");

describeUnless(
  browserSkipReason ?? anvilSkipReason,
  "paying a link on the local chain in the browser",
  () => {
    let chain: LocalChain;
    let receiver: Receiver | undefined;
    const live = useBrowserAndServer(async () => {
      [chain, receiver] = await Promise.all([sharedLocalChain(), startReceiver()]);
      return startWebhookServer({
        endpoints: [{ url: receiver.url }],
        chain: { rpcUrl: chain.rpcUrl, network: "sepolia", pollIntervalMs: 50 },
      });
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it("approves and pays FAU from a funded account, then shows the payment done once the server detected it", async () => {
      const node = createPublicClient({ chain: sepolia, transport: http(chain.rpcUrl) });
      const balanceOfPayee = () =>
        node.readContract({ address: fau.address, abi: erc20Abi, functionName: "balanceOf", args: [payee] });
      const before = await balanceOfPayee();
      const {
        requestIds: [requestId],
        securePaymentUrl,
      } = await createSecurePayment(live.server, [
        { payee, amount: "7.5", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
      ]);
      const { page, pageErrors } = await live.openPage(null);
      const wallet = await addChainWallet(page, chain, chain.accounts[0]?.privateKey as Hex);
      await page.goto(securePaymentUrl);
      await page.getByRole("button", { name: "Connect wallet" }).click();
      await page.locator("#check-result .notice").waitFor();
      expect(await textOf(page, "#check-result")).toBe(
        "Checks passed\n\nEvery transaction goes to an official Request Network contract on Sepolia and pays exactly the payee, amount, fee and payment reference shown above.",
      );
      await page.locator("#pay-button").click();
      await page.getByText("Payment complete", { exact: true }).waitFor();

      expect(await textOf(page, "#pay-message")).toBe(
        "Payment complete\n\nAll 2 transactions are confirmed on Sepolia. The payment service has recorded the payment: there is nothing left to pay.",
      );
      expect(await textOf(page, "#status")).toBe(
        "Payment complete. The payment service has recorded the payment.",
      );
      expect(await page.locator("#pay-button").innerText()).toBe("Paid");
      expect(await page.locator(".step-state").allInnerTexts()).toEqual(["Confirmed", "Confirmed"]);
      expect(wallet.sent).toHaveLength(2);
      expect(await page.locator(".step-hash code").allInnerTexts()).toEqual(wallet.sent);
      const [approval, payment] = await Promise.all(
        wallet.sent.map((hash) => node.getTransactionReceipt({ hash })),
      );
      expect([approval?.to, payment?.to]).toEqual([
        fau.address.toLowerCase(),
        contracts.erc20FeeProxy.toLowerCase(),
      ]);
      expect([approval?.from, payment?.from]).toEqual([
        wallet.address.toLowerCase(),
        wallet.address.toLowerCase(),
      ]);

      const request = await live.server.call("GET", `/v2/request/${requestId}`);
      expect(request.body).toMatchObject({
        hasBeenPaid: true,
        status: "paid",
        txHash: payment?.transactionHash,
        payments: [{ amount: "7.5", txHash: payment?.transactionHash }],
      });
      expect((await balanceOfPayee()) - before).toBe(parseUnits("7.5", 18));

      await live.server.server.webhooks.settled();
      const confirmed = (receiver as Receiver).received
        .filter((webhook) => hasValidSignature(webhook, sampleCredentials.webhookSecret))
        .map((webhook) => JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>)
        .filter((body) => body.requestId === requestId && body.event === "payment.confirmed");
      expect(confirmed).toMatchObject([
        { amount: "7.5", txHash: payment?.transactionHash, payerAddress: wallet.address, network: "sepolia" },
      ]);
      // The browser logs the token check's 409 (the link is completed): the answer the page waited for.
      expect(pageErrors).toEqual([
        "Failed to load resource: the server responded with a status of 409 (Conflict)",
      ]);
      await saveScreenshot(page, "paid-on-local-chain");
    });
  },
);
