import { expect, it } from "vitest";
import { createSecurePayment, payee, payer, usdcOnBase } from "../server/helpers.ts";
import {
  describeInBrowser,
  type PayerPage,
  saveScreenshot,
  shownDetails,
  textOf,
  useBrowserAndServer,
} from "./browser.ts";

const otherPayee = "0xb07D2398d2004378cad234DA0EF14f1c94A530e4";
const wallet = { account: payer, chainId: 1 };

const live = useBrowserAndServer();

/** Opens `url` as a payer and waits for the page's title heading to read `heading`. */
async function open(url: string, heading: string, withWallet = true): Promise<PayerPage> {
  const payerPage = await live.openPage(withWallet ? wallet : null);
  await payerPage.page.goto(url);
  await payerPage.page.getByRole("heading", { level: 1, name: heading }).waitFor();
  return payerPage;
}

describeInBrowser("the secure-payment page, by token check answer", () => {
  it("shows a payable link: payee, amount, fee, total, network, reference and expiry", async () => {
    const created = await live.server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase("125.00")], reference: "ORDER-2026-0412" },
    });
    const request = await live.server.call("GET", `/sandbox/requests/${created.body.requestIds[0]}`);
    const { page, pageErrors } = await open(created.body.securePaymentUrl, "Review and pay");

    expect(await shownDetails(page)).toEqual({
      "Pay to": payee,
      Amount: "125 USDC",
      Fee: "None",
      Total: "125 USDC",
      "Payment reference": request.body.paymentReference,
      Network: "Base (chain ID 8453)",
      "Merchant reference": "ORDER-2026-0412",
      "Link expires": "19 April 2026 at 10:00 UTC",
    });
    expect(await textOf(page, "#status")).toBe(
      "Payment of 125 USDC loaded. Review it, then connect your wallet.",
    );
    expect(await page.getByRole("button", { name: "Connect wallet" }).isEnabled()).toBe(true);
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    expect(await textOf(page, "#pay-hint")).toBe("Connect your wallet first.");
    expect(await page.title()).toBe("Review and pay · Secure payment");
    expect(pageErrors).toEqual([]);
    await saveScreenshot(page, "payable");
  });

  it("shows a payable batch link as a table of payments with their total", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server, [
      usdcOnBase("40.00"),
      usdcOnBase("12.50", otherPayee),
    ]);
    const { page } = await open(securePaymentUrl, "Review and pay");
    const rows = await page.locator("table tbody tr").allInnerTexts();
    expect(rows.map((row) => row.split("\t").slice(0, 4))).toEqual([
      ["1", payee, "40 USDC", "None"],
      ["2", otherPayee, "12.5 USDC", "None"],
    ]);
    expect(await page.locator("table caption").innerText()).toBe("2 payments in this link");
    expect((await shownDetails(page)).Total).toBe("52.5 USDC");
    await saveScreenshot(page, "payable-batch");
  });

  it("shows a payout link as one payment to the recipient, and joined payout links as a batch", async () => {
    const payout = async (recipient: string, amount: string) => {
      const answer = await live.server.call("POST", "/v2/secure-payments/payouts", {
        body: { recipient, network: "base", currency: "USDC-base", amount },
      });
      expect(answer.status).toBe(201);
      return answer.body as { token: string; securePaymentUrl: string };
    };
    const single = await payout(otherPayee, "30");
    const { page } = await open(single.securePaymentUrl, "Review and pay");
    expect(await shownDetails(page)).toMatchObject({
      "Pay to": otherPayee,
      Amount: "30 USDC",
      Total: "30 USDC",
    });

    const joined = await live.server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [(await payout(payee, "40")).token, (await payout(otherPayee, "2.5")).token] },
    });
    expect(joined.status).toBe(201);
    const batch = await open(joined.body.securePaymentUrl, "Review and pay");
    const rows = await batch.page.locator("table tbody tr").allInnerTexts();
    expect(rows.map((row) => row.split("\t").slice(0, 3))).toEqual([
      ["1", payee, "40 USDC"],
      ["2", otherPayee, "2.5 USDC"],
    ]);
    expect((await shownDetails(batch.page)).Total).toBe("42.5 USDC");
  });

  it("shows an expired link with the server's reason and asks for a new link", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server);
    await live.server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 7 * 24 * 3600 } });
    try {
      const { page } = await open(securePaymentUrl, "This payment link can no longer be used");
      expect(await textOf(page, "#content")).toBe(
        `The secure payment ${token} expired on 2026-04-19T10:00:00.000Z; ask the merchant for a new payment link.\n\nAsk the merchant for a new link.`,
      );
      expect(await page.locator("#page-title:focus").count()).toBe(1);
      expect(await page.locator("button").count()).toBe(0);
      await saveScreenshot(page, "expired");
    } finally {
      await live.server.call("POST", "/sandbox/clock", { body: { advanceSeconds: -7 * 24 * 3600 } });
    }
  });

  it("shows an already paid link", async () => {
    const { securePaymentUrl, requestIds } = await createSecurePayment(live.server);
    const paid = await live.server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    });
    expect(paid.body.securePayment.status).toBe("completed");
    const { page } = await open(securePaymentUrl, "This payment is already paid");
    expect(await textOf(page, "#content")).toBe(
      "There is nothing left to pay with this link.\n\nIf you did not expect this, contact the merchant before paying again.",
    );
    await saveScreenshot(page, "paid");
  });

  it("shows a link whose reported payment is still executing as being processed, offering no payment", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server);
    const reported = await live.server.call("POST", `/v2/secure-payments/${token}/intent`, {
      body: { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" },
    });
    expect(reported.status).toBe(200);
    const { page } = await open(securePaymentUrl, "This payment is being processed");
    expect(await textOf(page, "#content")).toBe(
      "A payment with this link was already sent and is still being confirmed.\n\nDo not pay again. Check back in a few minutes.",
    );
    expect(await page.locator("button").count()).toBe(0);
    await saveScreenshot(page, "in-progress");
  });

  it("shows an unknown token, and a link without token, as not found", async () => {
    const { page } = await open(
      `${live.server.url}/pay?token=01KM9S346Q3D25VT4F5V37E3S3`,
      "Payment link not found",
    );
    expect(await textOf(page, "#content")).toBe(
      "No payment matches this link. Check that you opened the whole link from the merchant.\n\nAsk the merchant for a new link if it still does not work.",
    );
    await saveScreenshot(page, "not-found");
    const bare = await open(`${live.server.url}/pay`, "Payment link not found");
    expect(await bare.page.locator("#page-title:focus").count()).toBe(1);
  });

  it("shows a server error with its request ID and retries on demand", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server);
    const { page } = await live.openPage(wallet);
    let failures = 1;
    await page.route("**/v2/secure-payments/*", async (route) => {
      if (failures === 0) return route.continue();
      failures -= 1;
      await route.fulfill({
        status: 500,
        contentType: "application/problem+json",
        headers: { "x-request-id": "req_test_500" },
        body: JSON.stringify({
          type: "/problems/internal-error",
          title: "Internal error",
          status: 500,
          detail: "The sandbox failed.",
        }),
      });
    });
    await page.goto(securePaymentUrl);
    await page.getByRole("heading", { level: 1, name: "The payment could not be loaded" }).waitFor();
    expect(await textOf(page, "#content")).toBe(
      "The sandbox failed.\n\nRequest ID for support: req_test_500\n\nTry again",
    );
    await saveScreenshot(page, "error");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("heading", { level: 1, name: "Review and pay" }).waitFor();
  });

  it("says so when the browser has no wallet", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server);
    const { page } = await open(securePaymentUrl, "Review and pay", false);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.locator("#wallet-info .notice").waitFor();
    expect(await textOf(page, "#wallet-info")).toBe(
      "No browser wallet found\n\nInstall a browser wallet for Ethereum networks, then reload this page.",
    );
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
  });
});
