import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseBatchPayout } from "../../src/client/batch-payout.ts";
import { readExpectedLink } from "../../src/page/expected-link.ts";
import { verifyTransactions } from "../../src/page/verify-transactions.ts";
import { createDefaultConfig, type SandboxConfig, sampleCredentials } from "../../src/server/index.ts";
import {
  createSecurePayment,
  feeAddress,
  payee,
  payer,
  problemErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../server/helpers.ts";

/** The API key of a second account, which has no client ID of its own. */
const otherAccountKey = "sk_other_account_0000000042";

/**
 * The sandbox config, with a fee on the sample client ID, a second one that only allows a shop,
 * and a second account.
 */
function configWithFee(): SandboxConfig {
  const config = createDefaultConfig();
  const account = config.accounts[0] as SandboxConfig["accounts"][number];
  const sample = account.clientIds[0] as (typeof account.clientIds)[number];
  sample.feePercentage = "0.5";
  sample.feeAddress = feeAddress;
  account.clientIds.push({
    id: "cid_shop",
    clientId: "pk_shop_000000000001",
    label: "Shop only",
    allowedDomains: ["https://shop.example"],
  });
  config.accounts.push({
    id: "acct_other",
    apiKeys: [otherAccountKey],
    webhookSecret: "whsec_other_account_42",
    clientIds: [],
  });
  return config;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithFee() });
});
afterAll(() => server.close());

/** A call as the payment page makes it: the client ID, and a same-origin fetch without Origin. */
const asThePage = (clientId: string = sampleCredentials.clientId, site = "same-origin") => ({
  auth: "none" as const,
  headers: { "x-client-id": clientId, "sec-fetch-site": site },
});

describe("GET /pay", () => {
  it("serves the page shell with the client ID that allows the server's own origin, and strict headers", async () => {
    const answer = await fetch(`${server.url}/pay?token=01KM9S346Q3D25VT4F5V37E3S3`);
    const html = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).toContain(`<meta name="payreq-client-id" content="${sampleCredentials.clientId}">`);
    expect(html).toContain('<link rel="stylesheet" href="/pay/assets/secure-payment.css">');
    expect(html).toContain('<p id="status" class="status" role="status" aria-live="polite"></p>');
  });

  it("leaves the client ID empty when no active client ID allows the server's origin", async () => {
    const config = createDefaultConfig();
    const sample = config.accounts[0]?.clientIds[0] as SandboxConfig["accounts"][number]["clientIds"][number];
    sample.allowedDomains = ["https://shop.example"];
    const other = await startTestServer({ config });
    try {
      const html = await (await fetch(`${other.url}/pay`)).text();
      expect(html).toContain('<meta name="payreq-client-id" content="">');
    } finally {
      await other.close();
    }
  });

  it("serves the committed bundle and style sheet, and nothing else, under /pay/assets", async () => {
    const script = await fetch(`${server.url}/pay/assets/secure-payment.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe(readFileSync("generated/page/secure-payment.js", "utf8"));
    const style = await fetch(`${server.url}/pay/assets/secure-payment.css`);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await fetch(`${server.url}/pay/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/pay/assets/other.js`)).status).toBe(404);
  });
});

describe("client-ID calls of the page, same origin without Origin", () => {
  it("are accepted when the browser says same-origin, and refused otherwise", async () => {
    const { token } = await createSecurePayment(server);
    expect((await server.call("GET", `/v2/secure-payments/${token}`, asThePage())).status).toBe(200);
    const crossSite = await server.call(
      "GET",
      `/v2/secure-payments/${token}`,
      asThePage(undefined, "cross-site"),
    );
    expect(problemErrors(crossSite, "/problems/unauthorized", 401)).toEqual([]);
    expect(crossSite.body.detail).toBe(
      "A client ID is only valid with the Origin header of one of its allowed domains.",
    );
  });

  it("still need a client ID whose allowed domains include the server's own origin", async () => {
    const { token } = await createSecurePayment(server);
    const answer = await server.call(
      "GET",
      `/v2/secure-payments/${token}`,
      asThePage("pk_shop_000000000001"),
    );
    problemErrors(answer, "/problems/origin-not-allowed", 403);
    expect(answer.body.detail).toBe(
      `Origin ${server.url} is not among the allowed domains of this client ID.`,
    );
  });
});

describe("the token check as the page reads it", () => {
  it("states the payment reference and the client ID's fee, which the pay calldata then carries", async () => {
    const { token, requestIds } = await createSecurePayment(server, [usdcOnBase("200.00")]);
    const check = await server.call("GET", `/v2/secure-payments/${token}`, asThePage());
    const request = await server.call("GET", `/sandbox/requests/${requestIds[0]}`);
    expect(check.body).toMatchObject({
      payee,
      amount: "200",
      paymentReference: request.body.paymentReference,
      feeAmount: "1",
      feeAddress,
    });
    const pay = await server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`, asThePage());
    const result = verifyTransactions(readExpectedLink(check.body), pay.body.transactions, payer);
    expect(result.mismatches).toEqual([]);
    expect(result.steps.map((step) => step.label)).toEqual([
      "Allow the ERC20FeeProxy contract to spend 201 USDC",
      `Pay 200 USDC to ${payee}`,
    ]);
  });

  it("reads and prepares a link of another account than its client ID's, by token", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      auth: "none",
      headers: { "x-api-key": otherAccountKey },
      body: { requests: [usdcOnBase("30.00")] },
    });
    const { token, requestIds } = created.body;
    const check = await server.call("GET", `/v2/secure-payments/${token}`, asThePage());
    expect(check.status).toBe(200);
    const pay = await server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`, asThePage());
    const result = verifyTransactions(readExpectedLink(check.body), pay.body.transactions, payer);
    expect(result.mismatches).toEqual([]);
    // By request id, the request answers only its own account.
    const byId = await server.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${payer}`, asThePage());
    problemErrors(byId, "/problems/not-found", 404);
  });

  it("lets a mixed native and ERC-20 batch with fees pass the check", async () => {
    const { token } = await createSecurePayment(server, [
      usdcOnBase("40.00"),
      { payee, amount: "0.02", invoiceCurrency: "ETH-base-base", paymentCurrency: "ETH-base-base" },
    ]);
    const check = await server.call("GET", `/v2/secure-payments/${token}`, asThePage());
    expect(check.body).toMatchObject({ feeAmounts: ["0.2", "0.0001"], feeAddress });
    const batch = await server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`, asThePage());
    expect(batch.status).toBe(200);
    const { approvals, payments } = normaliseBatchPayout(batch.body);
    const transactions = [...approvals, ...payments];
    const result = verifyTransactions(readExpectedLink(check.body), transactions, payer);
    expect(result.mismatches).toEqual([]);
    expect(result.steps.map((step) => step.label)).toEqual([
      "Allow the BatchConversionPayments contract to spend 40.2 USDC",
      "Pay 2 payments through the BatchConversionPayments contract",
    ]);
  });
});
