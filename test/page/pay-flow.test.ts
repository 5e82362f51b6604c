import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { decodeFunctionData, encodeFunctionData } from "viem";
import { expect, it } from "vitest";
import { erc20FeeProxyAbi, getOfficialContracts } from "../../src/chain/index.ts";
import { normaliseBatchPayout } from "../../src/client/batch-payout.ts";
import { transactionValueToBigInt } from "../../src/wire/transaction-value.ts";
import { createSecurePayment, payee, payer, usdcOnBase } from "../server/helpers.ts";
import { describeInBrowser, type PayerPage, saveScreenshot, textOf, useBrowserAndServer } from "./browser.ts";
import { type FakeWalletOptions, sentTransactions, walletCalls } from "./fake-wallet.ts";

const otherPayee = "0xb07D2398d2004378cad234DA0EF14f1c94A530e4";
const attacker = "0x000000000000000000000000000000000000dEaD";
const base = getOfficialContracts("base") as NonNullable<ReturnType<typeof getOfficialContracts>>;
const contrastCheck = readFileSync(new URL("./contrast-check.js", import.meta.url), "utf8");

const live = useBrowserAndServer();

interface WireTransaction {
  to: string;
  data: `0x${string}`;
  value: Parameters<typeof transactionValueToBigInt>[0];
}

/** A transaction as compared: lower-case target, calldata and value in wei. */
interface ComparableTransaction {
  to: string;
  data: string;
  value: bigint;
}

/** What the server answered, in the form the wallet's transactions are compared in. */
const fromServer = (transaction: {
  to: string;
  data: string;
  value: WireTransaction["value"];
}): ComparableTransaction => ({
  to: transaction.to.toLowerCase(),
  data: transaction.data,
  value: transactionValueToBigInt(transaction.value),
});

/** What the page sent to the wallet, in the form the server's transactions are compared in. */
const fromWallet = ({ to, data, value }: ComparableTransaction): ComparableTransaction => ({
  to: to.toLowerCase(),
  data,
  value,
});

/** What the server answers any caller for this link and wallet, fetched outside the browser. */
async function serverTransactions(token: string): Promise<WireTransaction[]> {
  const answer = await live.server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`);
  expect(answer.status).toBe(200);
  return answer.body.transactions;
}

/** Opens the link with the test wallet (on Ethereum mainnet) and waits for the details. */
async function openLink(
  securePaymentUrl: string,
  wallet: Partial<FakeWalletOptions> = {},
): Promise<PayerPage> {
  const payerPage = await live.openPage({ account: payer, chainId: 1, ...wallet });
  await payerPage.page.goto(securePaymentUrl);
  await payerPage.page.getByRole("heading", { level: 1, name: "Review and pay" }).waitFor();
  return payerPage;
}

async function connectAndCheck(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.locator("#check-result .notice").waitFor();
}

async function expectReadableContrast(page: Page): Promise<void> {
  const { checked, failures } = (await page.evaluate(contrastCheck)) as {
    checked: number;
    failures: unknown[];
  };
  expect(checked).toBeGreaterThan(15);
  expect(failures).toEqual([]);
}

/** Changes the answers of `GET /v2/secure-payments/{token}/pay` on their way to the page. */
async function tamperWithPayCalldata(page: Page, change: (transactions: WireTransaction[]) => void) {
  await page.route(/\/v2\/secure-payments\/[^/]+\/pay\?/, async (route) => {
    // Playwright re-sends the request outside the browser, without Sec-Fetch-Site: it names the
    // page's origin instead, which the client ID allows.
    const request = route.request();
    const origin = new URL(request.url()).origin;
    const response = await route.fetch({ headers: { ...request.headers(), origin } });
    const body = (await response.json()) as { transactions?: WireTransaction[] };
    if (!body.transactions) {
      await route.fulfill({ status: 502, body: `the test could not tamper with: ${JSON.stringify(body)}` });
      return;
    }
    change(body.transactions);
    await route.fulfill({ response, json: body });
  });
}

describeInBrowser("paying a link in the browser", () => {
  it("sends exactly the server's transactions, approval first, after switching to Base", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server, [usdcOnBase("125.00")]);
    const expected = await serverTransactions(token);
    expect(expected.map((transaction) => transaction.to)).toEqual([
      "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      base.erc20FeeProxy,
    ]);
    const { page, pageErrors } = await openLink(securePaymentUrl);
    await connectAndCheck(page);
    expect(await textOf(page, "#check-result")).toBe(
      "Checks passed\n\nEvery transaction goes to an official Request Network contract on Base and pays exactly the payee, amount, fee and payment reference shown above.",
    );
    expect(await textOf(page, "#wallet-info")).toBe(`Connected account: ${payer}`);
    expect(await page.locator(".step-label").allInnerTexts()).toEqual([
      "Allow the ERC20FeeProxy contract to spend 125 USDC",
      `Pay 125 USDC to ${payee}`,
    ]);
    expect(await page.locator("#pay-button:focus").innerText()).toBe("Pay 125 USDC");
    expect(await walletCalls(page)).toEqual([{ method: "eth_requestAccounts", params: null }]);
    await expectReadableContrast(page);

    await page.locator("#pay-button").click();
    await page.getByText("Payment sent", { exact: true }).waitFor();

    const sent = await sentTransactions(page);
    expect(sent.map(fromWallet)).toEqual(expected.map(fromServer));
    expect(sent.map((transaction) => transaction.from.toLowerCase())).toEqual([
      payer.toLowerCase(),
      payer.toLowerCase(),
    ]);
    const calls = await walletCalls(page);
    expect(calls.filter((call) => call.method === "wallet_switchEthereumChain")).toEqual([
      { method: "wallet_switchEthereumChain", params: [{ chainId: "0x2105" }] },
    ]);
    const order = calls.map((call) => call.method).filter((method) => method !== "eth_chainId");
    expect(order.indexOf("wallet_switchEthereumChain")).toBeLessThan(order.indexOf("eth_sendTransaction"));
    expect(await page.locator(".step-state").allInnerTexts()).toEqual(["Confirmed", "Confirmed"]);
    expect(await page.locator(".step-hash code").allInnerTexts()).toEqual(
      sent.map((transaction) => transaction.hash),
    );
    // Nothing watches Base here: the page waits for the service to record the payment.
    expect(await textOf(page, "#pay-message")).toBe(
      "Payment sent\n\nAll 2 transactions are confirmed on Base. Waiting for the payment service to record the payment…",
    );
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    expect(await page.locator("#pay-button").innerText()).toBe("Checking the payment…");
    expect(await textOf(page, "#status")).toBe(
      "Payment sent. All transactions are confirmed. Waiting for the payment service to record it…",
    );
    expect(pageErrors).toEqual([]);
    await saveScreenshot(page, "paid-in-browser");
  });

  it("pays a batch link with its calldata's approval and batchPayments call", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server, [
      usdcOnBase("40.00"),
      usdcOnBase("12.50", otherPayee),
    ]);
    const batch = await live.server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`);
    expect(batch.status).toBe(200);
    const { approvals, payments } = normaliseBatchPayout(batch.body);
    const expected = [...approvals, ...payments];
    const { page } = await openLink(securePaymentUrl);
    await connectAndCheck(page);
    expect(await page.locator(".step-label").allInnerTexts()).toEqual([
      "Allow the BatchConversionPayments contract to spend 52.5 USDC",
      "Pay 2 payments through the BatchConversionPayments contract",
    ]);
    await page.locator("#pay-button").click();
    await page.getByText("Payment sent", { exact: true }).waitFor();
    const sent = await sentTransactions(page);
    expect(sent.map(fromWallet)).toEqual(expected.map(fromServer));
  });

  it("blocks a transaction aimed at an unofficial address and sends nothing", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server, [usdcOnBase("125.00")]);
    const { page } = await live.openPage({ account: payer, chainId: 1 });
    await tamperWithPayCalldata(page, (transactions) => {
      (transactions[1] as WireTransaction).to = attacker;
    });
    await page.goto(securePaymentUrl);
    await connectAndCheck(page);
    const warning = page.getByRole("alert");
    expect(await warning.locator(".notice-heading").innerText()).toBe(
      "Do not pay: the transactions do not match this payment",
    );
    expect(await warning.locator("li").allInnerTexts()).toEqual([
      `Transaction 2 goes to ${attacker}, which is not the official ERC20FeeProxy on Base (${base.erc20FeeProxy}) nor the USDC token (0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913).`,
      `No transaction pays through the official ERC20FeeProxy on Base (${base.erc20FeeProxy}).`,
    ]);
    expect(await page.locator(".step-state").allInnerTexts()).toEqual([
      "Will not be sent: the check failed",
      "Will not be sent: the check failed",
    ]);
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    expect(await textOf(page, "#pay-hint")).toBe(
      "Paying is blocked because the transactions do not match the payment shown above.",
    );
    // Even with the button enabled behind the page's back, nothing reaches the wallet.
    await page.evaluate('document.getElementById("pay-button").removeAttribute("disabled")');
    await page.locator("#pay-button").click();
    expect((await walletCalls(page)).map((call) => call.method)).toEqual(["eth_requestAccounts"]);
    await expectReadableContrast(page);
    await saveScreenshot(page, "tampered-target");
  });

  it("blocks calldata that pays someone else through the official contract", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server, [usdcOnBase("125.00")]);
    const { page } = await live.openPage({ account: payer, chainId: 1 });
    await tamperWithPayCalldata(page, (transactions) => {
      const payment = transactions[1] as WireTransaction;
      const { args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: payment.data });
      const [token, , amount, reference, fee, feeAddress] = args;
      payment.data = encodeFunctionData({
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [token, attacker, amount, reference, fee, feeAddress],
      });
    });
    await page.goto(securePaymentUrl);
    await connectAndCheck(page);
    expect(await page.getByRole("alert").locator("li").allInnerTexts()).toEqual([
      `Transaction 2 pays ${attacker} instead of the payee ${payee}.`,
    ]);
    expect(await page.locator(".step-label").allInnerTexts()).toEqual([
      "Allow the ERC20FeeProxy contract to spend 125 USDC",
      `Pay 125 USDC to ${attacker}`,
    ]);
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    expect((await walletCalls(page)).map((call) => call.method)).toEqual(["eth_requestAccounts"]);
    await saveScreenshot(page, "tampered-payee");
  });

  it("explains a rejection in the wallet and resumes at the rejected step on Try again", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server, [usdcOnBase("125.00")]);
    const expected = (await serverTransactions(token)).map(fromServer);
    const { page } = await openLink(securePaymentUrl, { rejectSends: 1 });
    await connectAndCheck(page);
    await page.locator("#pay-button").click();
    await page.locator("#pay-message .notice").waitFor();
    expect(await textOf(page, "#pay-message")).toBe(
      "Transaction rejected in your wallet\n\nYou rejected step 1 of 2 in your wallet, so it was not sent. Select Try again to continue.",
    );
    expect(await page.locator(".step-state").allInnerTexts()).toEqual([
      "Rejected in your wallet",
      "Not sent yet",
    ]);
    expect(await page.locator("#pay-button:focus").innerText()).toBe("Try again");
    expect(await textOf(page, "#pay-hint")).toBe(
      "Continues with step 1 of 2; steps already confirmed are not sent again.",
    );
    await expectReadableContrast(page);
    await saveScreenshot(page, "rejected");

    await page.keyboard.press("Enter");
    await page.getByText("Payment sent", { exact: true }).waitFor();
    const sent = await sentTransactions(page);
    expect(sent.map((transaction) => transaction.hash === undefined)).toEqual([true, false, false]);
    expect(sent.map(fromWallet)).toEqual([expected[0], ...expected]);
  });

  it("can be used with the keyboard alone: Tab to connect, Enter to connect and to pay", async () => {
    const { securePaymentUrl } = await createSecurePayment(live.server, [usdcOnBase("9.99")]);
    const { page } = await openLink(securePaymentUrl);
    await page.keyboard.press("Tab");
    expect(await page.locator("#connect-button:focus").count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.locator("#check-result .notice").waitFor();
    expect(await page.locator("#pay-button:focus").innerText()).toBe("Pay 9.99 USDC");
    await page.keyboard.press("Enter");
    await page.getByText("Payment sent", { exact: true }).waitFor();
    expect((await sentTransactions(page)).length).toBe(2);
  });
  it("shows the payment done once the service records it, and says so when it has not after three minutes, checking again on demand", async () => {
    const redirectUrl = "https://shop.example/orders/42";
    const created = await live.server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase("20.00")], redirectUrl },
    });
    expect(created.status).toBe(201);
    const { requestIds, securePaymentUrl } = created.body as {
      requestIds: string[];
      securePaymentUrl: string;
    };
    const [requestId] = requestIds;
    const { page, pageErrors } = await live.openPage({ account: payer, chainId: 1 });
    // The page's clock, moved past the wait below; it runs on by itself meanwhile.
    await page.clock.install();
    await page.goto(securePaymentUrl);
    await connectAndCheck(page);
    await page.locator("#pay-button").click();
    await page.getByText("Payment sent", { exact: true }).waitFor();
    await page.clock.fastForward("03:00");
    await page.getByText("Payment not recorded yet", { exact: true }).waitFor();
    expect(await textOf(page, "#pay-message")).toBe(
      "Payment not recorded yet\n\nAll 2 transactions are confirmed on Base. The payment service has not recorded the payment after 3 minutes.\n\nSelect Check again in a few minutes. Do not pay again: contact the merchant with the transaction hashes above.",
    );
    expect(await page.locator("#pay-button:focus").innerText()).toBe("Check again");
    expect(await textOf(page, "#pay-hint")).toBe("Asks the payment service again; nothing is sent again.");
    await expectReadableContrast(page);
    await saveScreenshot(page, "payment-not-recorded");

    const sent = await sentTransactions(page);
    const recorded = await live.server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid", txHash: sent[1]?.hash },
    });
    expect(recorded.status).toBe(201);
    await page.keyboard.press("Enter");
    await page.getByText("Payment complete", { exact: true }).waitFor();
    expect(await textOf(page, "#pay-message")).toBe(
      "Payment complete\n\nAll 2 transactions are confirmed on Base. The payment service has recorded the payment: there is nothing left to pay.\n\nReturn to the merchant",
    );
    expect(await page.getByRole("link", { name: "Return to the merchant" }).getAttribute("href")).toBe(
      redirectUrl,
    );
    expect(await page.locator("#pay-button").innerText()).toBe("Paid");
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    // Checking again sent nothing again and did not switch the network again.
    const methods = (await walletCalls(page)).map((call) => call.method);
    expect(methods.filter((method) => method === "eth_sendTransaction")).toHaveLength(2);
    expect(methods.filter((method) => method === "wallet_switchEthereumChain")).toHaveLength(1);
    // The browser logs the token check's 409 (the link is completed): the answer the page waited for.
    expect(pageErrors).toEqual([
      "Failed to load resource: the server responded with a status of 409 (Conflict)",
    ]);
    await expectReadableContrast(page);
    await saveScreenshot(page, "payment-complete");
  });
  it("ends the wait with the server's reason when the link is withdrawn before the payment is recorded", async () => {
    const { securePaymentUrl, token } = await createSecurePayment(live.server, [usdcOnBase("3.00")]);
    const { page } = await openLink(securePaymentUrl);
    await connectAndCheck(page);
    await page.locator("#pay-button").click();
    await page.getByText("Payment sent", { exact: true }).waitFor();
    const withdrawn = await live.server.call("PATCH", `/sandbox/secure-payments/${token}`, {
      body: { status: "invalidated" },
    });
    expect(withdrawn.status).toBe(200);
    await page.getByText("Payment sent, but the link has ended", { exact: true }).waitFor();
    expect(await textOf(page, "#pay-message")).toBe(
      `Payment sent, but the link has ended\n\nAll 2 transactions are confirmed on Base. The link ended before the payment service recorded the payment: The secure payment ${token} was invalidated by the merchant and can no longer be paid; ask the merchant for a new payment link.\n\nDo not pay again: contact the merchant with the transaction hashes above.`,
    );
    expect(await page.locator("#pay-button").isDisabled()).toBe(true);
    expect(await page.locator("#pay-button").innerText()).toBe("Sent");
  });
});
