import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  createSecurePayment,
  problemErrors,
  startInstant,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const alice = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
const bob = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const smartAccount = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const eoa = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function payoutLink(recipient: string, options = {}) {
  const answer = await server.call("POST", "/v2/secure-payments/payouts", {
    body: { recipient, network: "base", currency: "USDC-base", amount: "25" },
    ...options,
  });
  expect(answer.status).toBe(201);
  return answer.body.token as string;
}

async function multicallLink(options = {}): Promise<{ token: string; children: string[] }> {
  const children = [await payoutLink(alice, options), await payoutLink(bob, options)];
  const answer = await server.call("POST", "/v2/secure-payments/multicall-payouts", {
    body: { childTokens: children },
    ...options,
  });
  expect(answer.status).toBe(201);
  return { token: answer.body.token, children };
}

const report = (token: string, body: unknown, options = {}) =>
  server.call("POST", `/v2/secure-payments/${token}/multicall-intent`, { body, ...options });

const stored = async (token: string) =>
  (await server.server.store.securePayments.get(token))?.multicallIntent;

describe("recordMulticallPayoutIntent (POST /v2/secure-payments/{token}/multicall-intent)", () => {
  it("records one intent per payout named, and replaces a payout's intent when reported again", async () => {
    const { token, children } = await multicallLink();
    const first = await report(token, {
      chain: "BASE",
      smartAccountAddress: smartAccount,
      payerEoaAddress: eoa,
      transactionIndices: [
        {
          childPosition: 1,
          transactionIndex: 2,
          sourceToken: "USDC-base",
          sourceAmount: "25000000",
          routeKind: "same_chain",
        },
        { childPosition: 0, transactionIndex: 1 },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ recorded: 2 });
    const entry = (childPosition: number, transactionIndex: number, more = {}) => ({
      childPosition,
      transactionIndex,
      routeTool: null,
      sourceToken: null,
      sourceAmount: null,
      routeKind: null,
      bridgeTool: null,
      recordedAt: startInstant,
      updatedAt: startInstant,
      ...more,
    });
    const secondPayout = entry(1, 2, {
      sourceToken: "USDC-base",
      sourceAmount: "25000000",
      routeKind: "same_chain",
    });
    expect(await stored(token)).toEqual({
      chain: "BASE",
      smartAccountAddress: smartAccount,
      payerEoaAddress: eoa,
      children: [entry(0, 1), secondPayout],
    });

    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 60 } });
    try {
      const again = await report(token, {
        chain: "BASE",
        transactionIndices: [
          {
            childPosition: 0,
            transactionIndex: 0,
            routeTool: "across",
            bridgeTool: "across",
            routeKind: "crosschain",
          },
        ],
      });
      expect(again.body).toEqual({ recorded: 1 });
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: startInstant } });
    }
    expect(await stored(token)).toEqual({
      chain: "BASE",
      smartAccountAddress: smartAccount,
      payerEoaAddress: eoa,
      children: [
        entry(0, 0, {
          routeTool: "across",
          bridgeTool: "across",
          routeKind: "crosschain",
          updatedAt: "2026-04-12T10:01:00.000Z",
        }),
        secondPayout,
      ],
    });
    // The payouts stay payable: an intent locks nothing.
    for (const child of children)
      expect((await server.call("GET", `/v2/secure-payments/${child}`)).status).toBe(200);
  });

  it("refuses a position the link does not have, or one named twice, naming it and keeping nothing", async () => {
    const { token } = await multicallLink();
    const beyond = await report(token, {
      chain: "BASE",
      transactionIndices: [
        { childPosition: 0, transactionIndex: 0 },
        { childPosition: 2, transactionIndex: 1 },
      ],
    });
    expect(problemErrors(beyond, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/transactionIndices/1/childPosition",
        message: "is 2, but the link has 2 payouts (positions 0 to 1)",
      },
    ]);
    const twice = await report(token, {
      chain: "BASE",
      transactionIndices: [
        { childPosition: 1, transactionIndex: 0 },
        { childPosition: 1, transactionIndex: 1 },
      ],
    });
    expect(problemErrors(twice, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/transactionIndices/1/childPosition", message: "is 1, named by an earlier entry too" },
    ]);
    expect(await stored(token)).toBeUndefined();
  });

  it("refuses a single link with 400 naming the token, and a link no longer pending with invalid-state", async () => {
    const single = await createSecurePayment(server);
    const body = { chain: "BASE", transactionIndices: [{ childPosition: 0, transactionIndex: 0 }] };
    expect(problemErrors(await report(single.token, body), "/problems/validation-failed", 400)).toEqual([
      {
        path: "/path/token",
        message:
          "is not a multicall payout link: report the payment of a single link with POST /v2/secure-payments/{token}/intent",
      },
    ]);
    const { token } = await multicallLink();
    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 8 * 24 * 3600 } });
    try {
      const expired = await report(token, body);
      problemErrors(expired, "/problems/invalid-state", 400);
      expect(expired.body.detail).toBe(
        `The multicall payout link ${token} is expired: intents are recorded only while it is pending.`,
      );
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: startInstant } });
    }
    expect(await stored(token)).toBeUndefined();
  });

  it("answers 404 for an unknown token and for another account's link", async () => {
    const body = { chain: "BASE", transactionIndices: [{ childPosition: 0, transactionIndex: 0 }] };
    problemErrors(await report("01KM9S346Q3D25VT4F5V37E3S3", body), "/problems/not-found", 404);
    const { token } = await multicallLink(asOtherAccount);
    problemErrors(await report(token, body), "/problems/not-found", 404);
    expect(await stored(token)).toBeUndefined();
  });
});
