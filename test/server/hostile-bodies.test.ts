import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxListedIssues } from "../../src/server/problems.ts";
import { problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const emptyItems = (count: number) => `{"requests":[${new Array(count).fill("{}").join(",")}]}`;

describe("createSecurePayment with hostile bodies", () => {
  it("refuses 100,000 empty items by their count alone, sent with the public client ID", async () => {
    const rawBody = emptyItems(100_000);
    expect(rawBody.length).toBeGreaterThan(300_000);
    const answer = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests", message: "must NOT have more than 100 items, got 100000" },
    ]);
    expect(answer.body.detail).toBe("1 field is invalid: /body/requests.");
    expect(answer.text.length).toBeLessThan(1_000);
  });

  it("lists the first 20 issues of 100 empty items and counts them all in the detail", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: emptyItems(100),
      headers: { "content-type": "application/json" },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors).toHaveLength(maxListedIssues);
    // Each empty item lacks its four required fields: payee, amount, invoiceCurrency, paymentCurrency.
    expect(errors.slice(0, 4)).toEqual([
      { path: "/body/requests/0/payee", message: "must have required property 'payee'" },
      { path: "/body/requests/0/amount", message: "must have required property 'amount'" },
      { path: "/body/requests/0/invoiceCurrency", message: "must have required property 'invoiceCurrency'" },
      { path: "/body/requests/0/paymentCurrency", message: "must have required property 'paymentCurrency'" },
    ]);
    expect(errors[19]?.path).toBe("/body/requests/4/paymentCurrency");
    expect(answer.body.detail).toMatch(
      /^400 issues were found; errors lists the first 20, about \/body\/requests\/0\/payee, /,
    );
  });

  it("still lists every issue when there are 20 or fewer", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase(), {}] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/requests/1/payee",
      "/body/requests/1/amount",
      "/body/requests/1/invoiceCurrency",
      "/body/requests/1/paymentCurrency",
    ]);
    expect(answer.body.detail).toBe(
      "4 fields are invalid: /body/requests/1/payee, /body/requests/1/amount, /body/requests/1/invoiceCurrency, /body/requests/1/paymentCurrency.",
    );
  });
});

describe("createSecurePayment with a hostile number of unknown fields", () => {
  it("lists 20 of 85,000 unknown fields of one item and counts them all", async () => {
    const item: Record<string, unknown> = { ...usdcOnBase() };
    for (let index = 0; index < 85_000; index++) item[`k${index}`] = 0;
    const answer = await server.call("POST", "/v2/secure-payments", { body: { requests: [item] } });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors).toHaveLength(20);
    expect(errors[0]).toEqual({
      path: "/body/requests/0/k0",
      message: "must NOT have additional properties, got 0",
    });
    expect(errors[19]?.path).toBe("/body/requests/0/k19");
    expect(answer.body.detail).toMatch(
      /^85000 issues were found; errors lists the first 20, about \/body\/requests\/0\/k0, /,
    );
  });
});

describe("createSecurePayment with a few unknown fields", () => {
  it("still lists them with every other issue the validator finds", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", { body: { requests: [{ note: "x" }] } });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/payee", message: "must have required property 'payee'" },
      { path: "/body/requests/0/amount", message: "must have required property 'amount'" },
      { path: "/body/requests/0/invoiceCurrency", message: "must have required property 'invoiceCurrency'" },
      { path: "/body/requests/0/paymentCurrency", message: "must have required property 'paymentCurrency'" },
      { path: "/body/requests/0/note", message: 'must NOT have additional properties, got "x"' },
    ]);
  });
});

describe("createBatchPayout with hostile bodies", () => {
  it("refuses 101 requests before looking at any of them", async () => {
    const answer = await server.call("POST", "/v2/payouts/batch", {
      rawBody: emptyItems(101),
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests", message: "must NOT have more than 100 items, got 101" },
    ]);
  });
});

describe("setSandboxWallet with hostile bodies", () => {
  it("names every list over its limit", async () => {
    const balance = { currency: "USDC-base", amount: "1" };
    const answer = await server.call("POST", "/sandbox/wallets", {
      body: {
        address: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        balances: new Array(150).fill(balance),
        allowances: new Array(101).fill({
          ...balance,
          spender: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        }),
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/balances", message: "must NOT have more than 100 items, got 150" },
      { path: "/body/allowances", message: "must NOT have more than 100 items, got 101" },
    ]);
  });
});

describe("createSandboxWebhookEndpoint with hostile bodies", () => {
  it("refuses 80,000 event names by their count, before checking that each is known and unique", async () => {
    const events = Array.from({ length: 80_000 }, (_, index) => `e${index}`);
    const answer = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "https://example.com/hooks", events },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/events", message: "must NOT have more than 3 items, got 80000" },
    ]);
  });
});
