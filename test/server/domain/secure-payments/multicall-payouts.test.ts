import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  createSecurePayment,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const alice = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
const bob = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const expiresAt = "2026-04-19T10:00:00.000Z";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function payoutLink(recipient: string, currency: string, amount: string, reference?: string) {
  const network = currency === "ETH-sepolia-sepolia" ? "sepolia" : currency.split("-").slice(1).join("-");
  const answer = await server.call("POST", "/v2/secure-payments/payouts", {
    body: { recipient, network, currency, amount, ...(reference ? { reference } : {}) },
  });
  expect(answer.status).toBe(201);
  return answer.body as { token: string; requestIds: string[] };
}

const createMulticall = (childTokens: string[], extra: Record<string, unknown> = {}) =>
  server.call("POST", "/v2/secure-payments/multicall-payouts", { body: { childTokens, ...extra } });
const readMulticall = (token: string) => server.call("GET", `/v2/secure-payments/multicall-payouts/${token}`);

describe("createMulticallPayout (POST /v2/secure-payments/multicall-payouts)", () => {
  it("refers to payout links on several networks in order, leaving them payable", async () => {
    const first = await payoutLink(alice, "USDC-base", "250", "PAYOUT-7");
    const second = await payoutLink(bob, "ETH-sepolia-sepolia", "0.5");
    const answer = await createMulticall([first.token, second.token], {
      requestedExecutionKind: "evm_cross_chain",
    });
    expect(answer.status).toBe(201);
    expect(schemaErrors("MulticallPayoutCreated", answer.body)).toBe("");
    expect(answer.body).toEqual({
      type: "multicall",
      token: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      status: "pending",
      expiresAt,
      createdAt: startInstant,
      items: [
        {
          securePaymentToken: first.token,
          requestId: first.requestIds[0],
          position: 0,
          eligibility: "eligible",
        },
        {
          securePaymentToken: second.token,
          requestId: second.requestIds[0],
          position: 1,
          eligibility: "eligible",
        },
      ],
    });
    expect((await server.server.store.securePayments.get(answer.body.token))?.multicall).toEqual({
      childTokens: [first.token, second.token],
      requestedExecutionKind: "evm_cross_chain",
    });
    // The payout links are untouched and still pay on their own.
    for (const child of [first, second]) {
      expect((await server.call("GET", `/v2/secure-payments/${child.token}`)).status).toBe(200);
    }
    // The multicall link is not paid through the single and batch paths.
    const refusal = [
      {
        path: "/path/token",
        message:
          "is a multicall payout link, which payreq does not pay through this path: read it with GET /v2/secure-payments/multicall-payouts/{token}",
      },
    ];
    const viaToken = (suffix: string, method = "GET", body?: unknown) =>
      server.call(
        method,
        `/v2/secure-payments/${answer.body.token}${suffix}`,
        body === undefined ? {} : { body },
      );
    expect(problemErrors(await viaToken(""), "/problems/validation-failed", 400)).toEqual(refusal);
    expect(problemErrors(await viaToken("/pay"), "/problems/validation-failed", 400)).toEqual(refusal);
    expect(
      problemErrors(
        await viaToken("/intent", "POST", { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual(refusal);
  });

  it("names each token that cannot be referred to, and creates nothing", async () => {
    const payable = await payoutLink(alice, "USDC-base", "10");
    const incoming = await createSecurePayment(server);
    const joined = await payoutLink(bob, "USDC-base", "1");
    const partner = await payoutLink(bob, "USDC-base", "2");
    expect(
      (
        await server.call("POST", "/v2/secure-payments/batch-payouts", {
          body: { tokens: [joined.token, partner.token] },
        })
      ).status,
    ).toBe(201);
    const theirs = await server.call("POST", "/v2/secure-payments/payouts", {
      ...asOtherAccount,
      body: { recipient: alice, network: "base", currency: "USDC-base", amount: "3" },
    });
    const before = (await server.server.store.listEvents()).length;
    const answer = await createMulticall([
      payable.token,
      incoming.token,
      joined.token,
      payable.token,
      theirs.body.token,
      "01KX45HY43KWJRP1XPA7Z3DJ8F",
    ]);
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/childTokens/1",
        message: "is a link for incoming payments; only payout links can be joined",
      },
      { path: "/body/childTokens/2", message: "is invalidated; only pending payout links can be joined" },
      { path: "/body/childTokens/3", message: "names the same link as /body/childTokens/0" },
      { path: "/body/childTokens/4", message: "is not a payout link of your account" },
      { path: "/body/childTokens/5", message: "is not a payout link of your account" },
    ]);
    expect((await server.server.store.listEvents()).length).toBe(before);
  });

  it("refuses Tron, fewer than two links and tokens that are not a list, naming the field", async () => {
    const [a, b] = [await payoutLink(alice, "USDC-base", "1"), await payoutLink(bob, "USDC-base", "1")];
    expect(
      problemErrors(
        await createMulticall([a.token, b.token], { requestedExecutionKind: "tron_batch" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual([
      {
        path: "/body/requestedExecutionKind",
        message: "is tron_batch: payreq has no Tron support; leave it out or name an EVM kind",
      },
    ]);
    const single = await createMulticall([a.token]);
    expect(problemErrors(single, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/childTokens",
    ]);
    const notAList = await server.call("POST", "/v2/secure-payments/multicall-payouts", {
      body: { childTokens: "all" },
    });
    expect(problemErrors(notAList, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/childTokens",
    ]);
  });
});

describe("getMulticallPayout (GET /v2/secure-payments/multicall-payouts/{token})", () => {
  it("shows each payout's state: payable, paid, in progress, ended; the status and totals follow", async () => {
    const links = [
      await payoutLink(alice, "USDC-base", "250", "PAYOUT-7"),
      await payoutLink(bob, "USDC-base", "12.5"),
      await payoutLink(alice, "ETH-sepolia-sepolia", "0.5"),
    ];
    const created = await createMulticall(links.map((link) => link.token));
    const token = created.body.token as string;

    const fresh = await readMulticall(token);
    expect(fresh.status).toBe(200);
    expect(schemaErrors("MulticallPayout", fresh.body)).toBe("");
    const requestIds = links.map((link) => link.requestIds[0] as string);
    const payable = (
      position: number,
      payee: string,
      amount: string,
      network: string,
      currency: string,
      reference: string | null,
    ) => ({
      securePaymentToken: links[position]?.token,
      requestId: requestIds[position],
      position,
      executable: true,
      blockReason: null,
      messageKey: null,
      context: {
        requestId: requestIds[position],
        securePaymentToken: links[position]?.token,
        position,
        hasBeenPaid: false,
        securePaymentStatus: "pending",
        requestStatus: "pending",
        expiresAt,
        network,
        currency,
      },
      recoveryAction: null,
      feePlan: null,
      amount,
      payee,
      reference,
    });
    expect(fresh.body).toEqual({
      paymentType: "multicall",
      status: "pending",
      redirectUrl: null,
      redirectLabel: null,
      orchestratorId: null,
      branding: null,
      // 250 + 12.5 USDC, and 0.5 ETH at 0.0005 ETH per dollar.
      analytics: {
        creationTimestamp: startInstant,
        totalPaymentAmountUsd: "1262.5",
        protocolFeeAmountUsd: "0",
        numberOfPaymentsExcludingFees: 3,
      },
      requestIds,
      token,
      canExecute: true,
      expiresAt,
      createdAt: startInstant,
      children: [
        payable(0, alice, "250", "base", "USDC-base", "PAYOUT-7"),
        payable(1, bob, "12.5", "base", "USDC-base", null),
        payable(2, alice, "0.5", "sepolia", "ETH-sepolia-sepolia", null),
      ],
      totals: {
        childCount: 3,
        blockedChildCount: 0,
        byDestinationCurrency: [
          { network: "base", currency: "USDC-base", totalAmount: "262.5" },
          { network: "sepolia", currency: "ETH-sepolia-sepolia", totalAmount: "0.5" },
        ],
        amountSummary: {
          grossAmount: "1262.5",
          netRecipientAmount: "1262.5",
          totalFees: "0",
          payeeBorneFees: "0",
          payerBorneFees: "0",
          payerTotal: "1262.5",
        },
      },
    });

    // The first payout is paid, the second reported in progress, the third's link invalidated.
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    });
    await server.call("POST", `/v2/secure-payments/${links[1]?.token}/intent`, {
      body: { txHash: `0x${"cd".repeat(32)}`, chain: "BASE", token: "USDC" },
    });
    await server.call("PATCH", `/sandbox/secure-payments/${links[2]?.token}`, {
      body: { status: "invalidated" },
    });
    const later = await readMulticall(token);
    expect(later.body).toMatchObject({ status: "partially_settled", canExecute: false });
    expect(
      later.body.children.map((child: Record<string, unknown>) => [
        child.executable,
        child.blockReason,
        child.messageKey,
        child.recoveryAction,
        (child.context as Record<string, unknown>).securePaymentStatus,
      ]),
    ).toEqual([
      [false, "already_paid", "multicall.child.already_paid", "remove_child", "completed"],
      [false, "request_processing", "multicall.child.request_processing", null, "pending"],
      [
        false,
        "secure_payment_not_pending",
        "multicall.child.secure_payment_not_pending",
        "remove_child",
        "invalidated",
      ],
    ]);
    expect(later.body.totals.blockedChildCount).toBe(3);
  });

  it("reads completed once every payout is paid, and expired past its expiry while none is", async () => {
    const links = [await payoutLink(alice, "USDC-base", "1"), await payoutLink(bob, "USDC-base", "2")];
    const paidToken = (await createMulticall(links.map((link) => link.token))).body.token as string;
    for (const link of links) {
      await server.call("POST", `/sandbox/requests/${link.requestIds[0]}/payments`, {
        body: { outcome: "paid", txHash: `0x${"ef".repeat(32)}` },
      });
    }
    expect((await readMulticall(paidToken)).body).toMatchObject({ status: "completed", canExecute: false });

    const unpaid = [await payoutLink(alice, "USDC-base", "1"), await payoutLink(bob, "USDC-base", "2")];
    const unpaidToken = (await createMulticall(unpaid.map((link) => link.token))).body.token as string;
    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 7 * 24 * 3600 } });
    try {
      const expired = await readMulticall(unpaidToken);
      expect(expired.body).toMatchObject({ status: "expired", canExecute: false });
      expect(expired.body.children.map((child: Record<string, unknown>) => child.blockReason)).toEqual([
        "secure_payment_expired",
        "secure_payment_expired",
      ]);
      expect(expired.body.children[0].recoveryAction).toBe("recreate_reduced");
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: startInstant } });
    }
  });

  it("answers 404 for another account's link, a link of another kind and an unknown token", async () => {
    const links = [await payoutLink(alice, "USDC-base", "1"), await payoutLink(bob, "USDC-base", "2")];
    const token = (await createMulticall(links.map((link) => link.token))).body.token as string;
    const detail = (value: string) => `No multicall payout link of your account has the token ${value}.`;
    const theirs = await server.call("GET", `/v2/secure-payments/multicall-payouts/${token}`, asOtherAccount);
    problemErrors(theirs, "/problems/not-found", 404);
    expect(theirs.body.detail).toBe(detail(token));
    problemErrors(await readMulticall(links[0]?.token as string), "/problems/not-found", 404);
    problemErrors(await readMulticall("01KX45HY43KWJRP1XPA7Z3DJ8F"), "/problems/not-found", 404);
    expect(
      problemErrors(await readMulticall("not-a-token"), "/problems/validation-failed", 400).map(
        (issue) => issue.path,
      ),
    ).toEqual(["/path/token"]);
  });
});
