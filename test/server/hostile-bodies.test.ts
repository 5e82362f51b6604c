import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig } from "../../src/server/index.ts";
import { maxListedIssues } from "../../src/server/problems.ts";
import { problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const emptyItems = (count: number) => `{"requests":[${new Array(count).fill("{}").join(",")}]}`;

/** The one issue of a body refused for holding more than 10,000 objects, arrays and members. */
const tooManyStructures = (path: string, largest: string, structures: number) => [
  {
    path,
    message: `has ${largest}: a body may hold at most 10000 objects, arrays and members, and this one holds ${structures}`,
  },
];

describe("createSecurePayment with hostile bodies", () => {
  it("refuses 100,000 empty items by their number before parsing them, sent with the public client ID", async () => {
    const rawBody = emptyItems(100_000);
    expect(rawBody.length).toBeGreaterThan(300_000);
    const answer = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      rawBody,
      headers: { "content-type": "application/json" },
    });
    // The outer object and its one member, the array and its 100,000 objects.
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual(
      tooManyStructures("/body/requests", "100000 items", 100_003),
    );
    expect(answer.body.detail).toBe("1 field is invalid: /body/requests.");
    expect(answer.text.length).toBeLessThan(1_000);
  });

  it("refuses a body of 1 MiB of empty items, the most the body limit lets through", async () => {
    const rawBody = emptyItems(349_520);
    expect(rawBody.length).toBe(1_048_574);
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual(
      tooManyStructures("/body/requests", "349520 items", 349_523),
    );
  });

  it("lists the first 20 issues of 100 empty items and counts them all in the detail", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: emptyItems(100),
      headers: { "content-type": "application/json" },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors).toHaveLength(maxListedIssues);
    // Each empty item lacks the one member both forms of an item require: amount.
    expect(errors).toEqual(
      Array.from({ length: maxListedIssues }, (_, index) => ({
        path: `/body/requests/${index}/amount`,
        message: "must have required property 'amount'",
      })),
    );
    expect(answer.body.detail).toMatch(
      /^100 issues were found; errors lists the first 20, about \/body\/requests\/0\/amount, /,
    );
  });

  it("still lists every issue when there are 20 or fewer", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase(), {}, {}, {}] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/requests/1/amount",
      "/body/requests/2/amount",
      "/body/requests/3/amount",
    ]);
    expect(answer.body.detail).toBe(
      "3 fields are invalid: /body/requests/1/amount, /body/requests/2/amount, /body/requests/3/amount.",
    );
  });
});

/** One secure-payment item with `count` members the spec does not describe. */
function itemWithUnknownMembers(count: number): Record<string, unknown> {
  const item: Record<string, unknown> = { ...usdcOnBase() };
  for (let index = 0; index < count; index++) item[`k${index}`] = 0;
  return item;
}

describe("createSecurePayment with a hostile number of unknown fields", () => {
  it("refuses 85,000 unknown fields of one item by their number before parsing them, naming the item", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [itemWithUnknownMembers(85_000)] },
    });
    // The item's 4 members and 85,000 unknown ones; the outer object, its member, the array, the item.
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual(
      tooManyStructures("/body/requests/0", "85004 members", 85_008),
    );
  });

  it("drops 9,000 unknown fields of one item unread and creates the payment", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [itemWithUnknownMembers(9_000)] },
    });
    expect(answer.status).toBe(201);
    expect((answer.body as { requestIds: string[] }).requestIds).toHaveLength(1);
  });
});

describe("createSecurePayment with unknown fields, with strictBodies", () => {
  let strictServer: TestServer;
  beforeAll(async () => {
    const config = createDefaultConfig();
    config.strictBodies = true;
    strictServer = await startTestServer({ config });
  });
  afterAll(() => strictServer.close());

  it("lists 20 of 9,000 unknown fields of one item and counts them all", async () => {
    const answer = await strictServer.call("POST", "/v2/secure-payments", {
      body: { requests: [itemWithUnknownMembers(9_000)] },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors).toHaveLength(maxListedIssues);
    expect(errors[0]).toEqual({
      path: "/body/requests/0/k0",
      message:
        "is not a member the spec describes here: remove it (the server runs with strictBodies), got 0",
    });
    expect(errors[19]?.path).toBe("/body/requests/0/k19");
    expect(answer.body.detail).toMatch(
      /^9000 issues were found; errors lists the first 20, about \/body\/requests\/0\/k0, /,
    );
  });

  it("refuses 3,000 items, each with unknown members, by their count before counting the members", async () => {
    const rawBody = `{"requests":[${new Array(3_000).fill('{"n":1}').join(",")}],"tip":1}`;
    const answer = await strictServer.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      rawBody,
      headers: { "content-type": "application/json" },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors.length).toBeLessThanOrEqual(maxListedIssues);
    expect(errors).toEqual([
      { path: "/body/requests", message: "must NOT have more than 100 items, got 3000" },
    ]);
    expect(answer.body.detail).toBe("1 field is invalid: /body/requests.");
  });

  it("still lists a few of them with every other issue the validator finds", async () => {
    const answer = await strictServer.call("POST", "/v2/secure-payments", {
      body: { requests: [{ note: "x" }] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/amount", message: "must have required property 'amount'" },
      {
        path: "/body/requests/0/note",
        message:
          'is not a member the spec describes here: remove it (the server runs with strictBodies), got "x"',
      },
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

describe("setSandboxClock with hostile bodies", () => {
  it("refuses 1 MiB of spaces as the time, by its pattern and its format", async () => {
    const rawBody = JSON.stringify({ now: " ".repeat(1_048_000) });
    const answer = await server.call("POST", "/sandbox/clock", {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/now", message: "must be a sandbox instant such as 2026-04-12T10:00:00Z" },
      { path: "/body/now", message: 'must match format "date-time"' },
    ]);
    const clock = await server.call("GET", "/sandbox/clock");
    expect(clock.status).toBe(200);
    expect((clock.body as { offsetSeconds: number }).offsetSeconds).toBe(0);
  });
});
