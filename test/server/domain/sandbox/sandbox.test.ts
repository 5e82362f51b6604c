import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDefaultConfig,
  createFixedClock,
  type DomainEvent,
  SandboxClock,
} from "../../../../src/server/index.ts";
import {
  createSecurePayment,
  payer,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
const committed: DomainEvent[] = [];
beforeAll(async () => {
  server = await startTestServer();
  server.server.store.onEventsCommitted((events) => committed.push(...events));
});
afterAll(() => server.close());

describe("getSandboxClock and setSandboxClock (the sandbox clock)", () => {
  it("reads, advances and sets the clock every time decision uses", async () => {
    const clockServer = await startTestServer();
    try {
      expect((await clockServer.call("GET", "/sandbox/clock")).body).toEqual({
        now: "2026-04-12T10:00:00.000Z",
        offsetSeconds: 0,
      });
      const advanced = await clockServer.call("POST", "/sandbox/clock", { body: { advanceSeconds: 691200 } });
      expect(advanced.body).toEqual({ now: "2026-04-20T10:00:00.000Z", offsetSeconds: 691200 });
      const set = await clockServer.call("POST", "/sandbox/clock", { body: { now: "2026-04-12T09:00:00Z" } });
      expect(set.body).toEqual({ now: "2026-04-12T09:00:00.000Z", offsetSeconds: -3600 });
      // The base clock keeps running under the offset.
      clockServer.clock.set("2026-04-12T10:00:30.000Z");
      expect((await clockServer.call("GET", "/sandbox/clock")).body.now).toBe("2026-04-12T09:00:30.000Z");
    } finally {
      await clockServer.close();
    }
  });

  it("expires a link when moved past its lifetime, and revives it when moved back", async () => {
    const clockServer = await startTestServer();
    try {
      const { token } = await createSecurePayment(clockServer);
      await clockServer.call("POST", "/sandbox/clock", { body: { advanceSeconds: 7 * 24 * 3600 } });
      expect((await clockServer.call("GET", `/v2/secure-payments/${token}`)).status).toBe(403);
      await clockServer.call("POST", "/sandbox/clock", { body: { advanceSeconds: -1 } });
      expect((await clockServer.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
    } finally {
      await clockServer.close();
    }
  });

  it("answers an unknown query parameter with the 400 both clock operations document", async () => {
    for (const method of ["GET", "POST"]) {
      const answer = await server.call(method, "/sandbox/clock?foo=1", {
        ...(method === "POST" ? { body: { advanceSeconds: 1 } } : {}),
      });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/query/foo", message: `Unknown query parameter 'foo', got "1"` },
      ]);
    }
  });

  it("takes exactly one of advanceSeconds and now", async () => {
    const both = await server.call("POST", "/sandbox/clock", {
      body: { advanceSeconds: 1, now: "2026-01-01T00:00:00Z" },
    });
    expect(problemErrors(both, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "must contain exactly one of advanceSeconds or now" },
    ]);
    const neither = await server.call("POST", "/sandbox/clock", { body: {} });
    expect(problemErrors(neither, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "must contain exactly one of advanceSeconds or now" },
    ]);
    const fractional = await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 1.5 } });
    expect(problemErrors(fractional, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/advanceSeconds", message: "must be integer, got 1.5" },
    ]);
  });
});

describe("setSandboxClock within the sandbox clock range", () => {
  const instantHint = "must be a sandbox instant such as 2026-04-12T10:00:00Z";
  const rangeWords = "from 1970-01-01T00:00:00Z up to, not including, 9000-01-01T00:00:00Z";
  let clockServer: TestServer;
  beforeAll(async () => {
    clockServer = await startTestServer();
  });
  afterAll(() => clockServer.close());
  const moveClock = (body: unknown) => clockServer.call("POST", "/sandbox/clock", { body });
  const readClock = async () => (await clockServer.call("GET", "/sandbox/clock")).body;
  const atStart = { now: "2026-04-12T10:00:00.000Z", offsetSeconds: 0 };

  it("refuses a leap second with a 400 naming the field, and keeps the clock working", async () => {
    await moveClock({ now: "2026-04-12T10:00:00Z" });
    const answer = await moveClock({ now: "2026-06-30T23:59:60Z" });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/now", message: `${instantHint}, got "2026-06-30T23:59:60Z"` },
    ]);
    expect(await readClock()).toEqual(atStart);
    const { token } = await createSecurePayment(clockServer);
    expect((await clockServer.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
  });

  it("refuses year 9999 and year 10000, so that links keep answering their token check", async () => {
    await moveClock({ now: "2026-04-12T10:00:00Z" });
    for (const now of ["9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59Z"]) {
      const answer = await moveClock({ now });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body/now", message: `${instantHint}, got ${JSON.stringify(now)}` },
      ]);
    }
    const year10000 = await moveClock({ now: "10000-01-01T00:00:00Z" });
    expect(problemErrors(year10000, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/now", message: `${instantHint}, got "10000-01-01T00:00:00Z"` },
      { path: "/body/now", message: 'must match format "date-time", got "10000-01-01T00:00:00Z"' },
    ]);
    expect(await readClock()).toEqual(atStart);
    const { token } = await createSecurePayment(clockServer);
    const check = await clockServer.call("GET", `/v2/secure-payments/${token}`);
    expect(check.status).toBe(200);
    expect(check.body.expiresAt).toBe("2026-04-19T10:00:00.000Z");
  });

  it("refuses an invalid calendar date", async () => {
    const answer = await moveClock({ now: "2026-02-30T00:00:00Z" });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/now", message: 'must match format "date-time", got "2026-02-30T00:00:00Z"' },
    ]);
  });

  it("refuses an instant whose offset moves it out of the range", async () => {
    await moveClock({ now: "2026-04-12T10:00:00Z" });
    for (const now of ["8999-12-31T23:30:00-01:00", "1970-01-01T00:30:00+01:00"]) {
      const answer = await moveClock({ now });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body/now", message: `must be a real instant ${rangeWords}, got ${JSON.stringify(now)}` },
      ]);
    }
    expect(await readClock()).toEqual(atStart);
  });

  it("goes to either end of the range, where links still get a valid expiry", async () => {
    expect((await moveClock({ now: "1970-01-01T00:00:00Z" })).body.now).toBe("1970-01-01T00:00:00.000Z");
    expect((await moveClock({ now: "8999-12-31T23:59:59.999Z" })).body.now).toBe("8999-12-31T23:59:59.999Z");
    const { token } = await createSecurePayment(clockServer);
    const check = await clockServer.call("GET", `/v2/secure-payments/${token}`);
    expect(check.status).toBe(200);
    expect(check.body.expiresAt).toBe("9000-01-07T23:59:59.999Z");
  });

  it("refuses an advance past either end, naming advanceSeconds and leaving the clock", async () => {
    await moveClock({ now: "8999-12-31T23:59:59Z" });
    const late = await moveClock({ advanceSeconds: 1 });
    expect(problemErrors(late, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/advanceSeconds",
        message: `must keep the clock ${rangeWords}, got 1 (to 9000-01-01T00:00:00.000Z)`,
      },
    ]);
    expect((await readClock()).now).toBe("8999-12-31T23:59:59.000Z");
    await moveClock({ now: "1970-01-01T00:00:00Z" });
    const early = await moveClock({ advanceSeconds: -1 });
    expect(problemErrors(early, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/advanceSeconds",
        message: `must keep the clock ${rangeWords}, got -1 (to 1969-12-31T23:59:59.000Z)`,
      },
    ]);
    expect((await readClock()).now).toBe("1970-01-01T00:00:00.000Z");
    expect(clockServer.loggedErrors).toEqual([]);
  });
});

describe("SandboxClock", () => {
  it("throws and stays put when asked to leave its range", () => {
    const clock = new SandboxClock(createFixedClock("2026-04-12T10:00:00Z"));
    expect(() => clock.set(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => clock.set(new Date("9000-01-01T00:00:00Z"))).toThrow(RangeError);
    expect(() => clock.advance(-1_775_988_001)).toThrow(RangeError);
    expect(clock.now().toISOString()).toBe("2026-04-12T10:00:00.000Z");
    expect(clock.advance(-1_775_988_000).toISOString()).toBe("1970-01-01T00:00:00.000Z");
  });
});

describe("setSandboxWallet and getSandboxWallet (the sandbox wallet book)", () => {
  it("sets balances and allowances, keeps unmentioned ones, and reads them back", async () => {
    const wallet = "0x00000000000000000000000000000000000a11ce";
    const first = await server.call("POST", "/sandbox/wallets", {
      body: {
        address: wallet,
        balances: [{ currency: "USDC-base", amount: "250.00" }],
        allowances: [
          { currency: "USDC-base", spender: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814", amount: "1000" },
        ],
      },
    });
    expect(first.status).toBe(200);
    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: wallet.toUpperCase().replace("0X", "0x"),
        balances: [{ currency: "eth-base-base", amount: "0.05" }],
      },
    });
    const read = await server.call("GET", `/sandbox/wallets/${wallet}`);
    expect(schemaErrors("SandboxWallet", read.body)).toBe("");
    expect(read.body).toEqual({
      address: getAddress(wallet),
      balances: [
        { currency: "USDC-base", amount: "250" },
        { currency: "ETH-base-base", amount: "0.05" },
      ],
      allowances: [
        { currency: "USDC-base", spender: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814", amount: "1000" },
      ],
    });
  });

  it("answers 404 for a wallet never set", async () => {
    problemErrors(
      await server.call("GET", "/sandbox/wallets/0x000000000000000000000000000000000000beef"),
      "/problems/not-found",
      404,
    );
  });

  it("refuses unknown currencies, native allowances and excess decimals, keeping nothing", async () => {
    const wallet = "0x00000000000000000000000000000000000b0b02";
    const answer = await server.call("POST", "/sandbox/wallets", {
      body: {
        address: wallet,
        balances: [
          { currency: "USDC-base", amount: "1.0000001" },
          { currency: "DOGE-base", amount: "1" },
        ],
        allowances: [{ currency: "ETH-base-base", spender: payer, amount: "1" }],
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/balances/0/amount",
        message: 'must have at most 6 decimals for this currency, got "1.0000001"',
      },
      { path: "/body/balances/1/currency", message: 'is not a currency the sandbox knows, got "DOGE-base"' },
      {
        path: "/body/allowances/0/currency",
        message: 'is a native currency, which has no allowance; got "ETH-base-base"',
      },
    ]);
    expect((await server.call("GET", `/sandbox/wallets/${wallet}`)).status).toBe(404);
  });
});

describe("recordSandboxPayment and getSandboxRequest (sandbox payments)", () => {
  it("drives a request through failed, partially paid and paid, recording each payment", async () => {
    const { requestIds, token } = await createSecurePayment(server, [usdcOnBase("125.00")]);
    const requestId = requestIds[0] as string;
    const pending = await server.call("GET", `/sandbox/requests/${requestId}`);
    expect(schemaErrors("SandboxRequest", pending.body)).toBe("");
    expect(pending.body).toMatchObject({
      status: "pending",
      amount: "125.00",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      expectedAmount: "125",
      amountPaid: "0",
      payments: [],
      securePayment: { token, status: "pending", expiresAt: "2026-04-19T10:00:00.000Z" },
    });

    const failed = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "failed" },
    });
    expect(failed.status).toBe(201);
    expect(failed.body.status).toBe("failed");
    expect(failed.body.payments[0]).toMatchObject({
      outcome: "failed",
      amount: "0",
      subStatus: "insufficient_funds",
    });
    expect(failed.body.payments[0].txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const partial = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "partial", amount: "40", txHash: `0x${"1".repeat(64)}` },
    });
    expect(partial.body).toMatchObject({ status: "partially_paid", amountPaid: "40" });
    expect(partial.body.securePayment.status).toBe("pending");

    const paid = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid" },
    });
    expect(paid.body).toMatchObject({ status: "paid", amountPaid: "125" });
    expect(paid.body.payments.map((p: { outcome: string; amount: string }) => [p.outcome, p.amount])).toEqual(
      [
        ["failed", "0"],
        ["partial", "40"],
        ["paid", "85"],
      ],
    );
    expect(paid.body.securePayment.status).toBe("completed");

    const again = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid" },
    });
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(`Request ${requestId} is already paid; it accepts no further payment.`);

    const recorded = committed.filter(
      (event) => event.type === "request.payment_recorded" && event.data.requestId === requestId,
    );
    expect(
      recorded.map((event) => [event.data.outcome, event.data.amount, event.data.totalAmountPaid]),
    ).toEqual([
      ["failed", "0", "0"],
      ["partial", "40", "40"],
      ["paid", "85", "125"],
    ]);
    expect(
      committed.some(
        (event) =>
          event.type === "secure_payment.status_changed" &&
          event.data.token === token &&
          event.data.to === "completed",
      ),
    ).toBe(true);
  });

  it("checks amounts against the outcome", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase("10")]);
    const path = `/sandbox/requests/${requestIds[0]}/payments`;
    const cases: [unknown, string, string][] = [
      [{ outcome: "partial" }, "/body/amount", "is required for a partial payment"],
      [
        { outcome: "partial", amount: "10" },
        "/body/amount",
        'must be above 0 and below what is left to pay (10 USDC-base) for a partial payment; record a paid outcome instead, got "10"',
      ],
      [
        { outcome: "paid", amount: "9" },
        "/body/amount",
        'must cover what is left to pay (10 USDC-base) for a paid outcome; record a partial payment instead, got "9"',
      ],
      [
        { outcome: "failed", amount: "1" },
        "/body/amount",
        "is only allowed for paid, partial or refunded, not for failed",
      ],
      [
        { outcome: "paid", subStatus: "x" },
        "/body/subStatus",
        "is only allowed for failed or processing, not for paid",
      ],
    ];
    for (const [body, path400, message] of cases) {
      const answer = await server.call("POST", path, { body });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([{ path: path400, message }]);
    }
    const over = await server.call("POST", path, { body: { outcome: "paid", amount: "12" } });
    expect(over.body).toMatchObject({ status: "paid", amountPaid: "12" });
  });

  it("answers 404 for unknown requests", async () => {
    const id = `01${"c".repeat(64)}`;
    problemErrors(await server.call("GET", `/sandbox/requests/${id}`), "/problems/not-found", 404);
    problemErrors(
      await server.call("POST", `/sandbox/requests/${id}/payments`, { body: { outcome: "paid" } }),
      "/problems/not-found",
      404,
    );
  });
});

describe("updateSandboxSecurePayment (ending a link)", () => {
  it("ends only pending links, and 404s unknown ones", async () => {
    const { token, requestIds } = await createSecurePayment(server);
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, { body: { outcome: "paid" } });
    const completed = await server.call("PATCH", `/sandbox/secure-payments/${token}`, {
      body: { status: "invalidated" },
    });
    problemErrors(completed, "/problems/invalid-state", 400);
    expect(completed.body.detail).toBe(
      `Secure payment ${token} is completed; only a pending secure payment can become invalidated.`,
    );
    problemErrors(
      await server.call("PATCH", "/sandbox/secure-payments/01KM9S346Q3D25VT4F5V37E3S3", {
        body: { status: "invalidated" },
      }),
      "/problems/not-found",
      404,
    );
    const wrong = await server.call("PATCH", `/sandbox/secure-payments/${token}`, {
      body: { status: "completed" },
    });
    expect(problemErrors(wrong, "/problems/validation-failed", 400)[0]?.path).toBe("/body/status");
  });

  it("requires the API key", async () => {
    const answer = await server.call("GET", "/sandbox/clock", { auth: "none" });
    problemErrors(answer, "/problems/unauthorized", 401);
    expect(answer.body.detail).toBe(
      "Send an API key in x-api-key; this operation does not accept client IDs.",
    );
  });
});

describe("sandbox calls on another account's records", () => {
  const otherKey = "sk_other_account_0000000002";
  const asOther = { auth: "none" as const, headers: { "x-api-key": otherKey } };

  it("answers 404 for another account's request and secure payment, and changes nothing", async () => {
    const config = createDefaultConfig();
    config.accounts.push({
      id: "acct_other",
      apiKeys: [otherKey],
      webhookSecret: "whsec_other_account_02",
      clientIds: [],
    });
    const shared = await startTestServer({ config });
    try {
      const { token, requestIds } = await createSecurePayment(shared, [usdcOnBase("10")]);
      const requestId = requestIds[0] as string;
      const read = await shared.call("GET", `/sandbox/requests/${requestId}`, asOther);
      problemErrors(read, "/problems/not-found", 404);
      const paid = await shared.call("POST", `/sandbox/requests/${requestId}/payments`, {
        ...asOther,
        body: { outcome: "paid" },
      });
      problemErrors(paid, "/problems/not-found", 404);
      const ended = await shared.call("PATCH", `/sandbox/secure-payments/${token}`, {
        ...asOther,
        body: { status: "invalidated" },
      });
      problemErrors(ended, "/problems/not-found", 404);
      const own = await shared.call("GET", `/sandbox/requests/${requestId}`);
      expect(own.body).toMatchObject({ requestId, status: "pending", payments: [] });
      expect((await shared.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
    } finally {
      await shared.close();
    }
  });
});
