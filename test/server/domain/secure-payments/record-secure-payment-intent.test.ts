import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSecurePayment,
  payer,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

const txHash = `0x${"ab".repeat(32)}`;
const safeTxHash = `0x${"cd".repeat(32)}`;
/** Unix seconds of the start instant: the sandbox clock stands still there. */
const startSeconds = Date.parse(startInstant) / 1000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const report = (token: string, body: Record<string, unknown>) =>
  server.call("POST", `/v2/secure-payments/${token}/intent`, { body });
const check = (token: string) => server.call("GET", `/v2/secure-payments/${token}`);

async function paymentReferenceOf(requestId: string): Promise<string> {
  return ((await server.server.store.requests.get(requestId)) as { paymentReference: string })
    .paymentReference;
}

describe("recordSecurePaymentIntent (POST /v2/secure-payments/{token}/intent)", () => {
  it("records a broadcast payment; the link then answers 423 until the payment is recorded, then 409", async () => {
    const { token, requestIds } = await createSecurePayment(server);
    const requestId = requestIds[0] as string;
    const answer = await report(token, { txHash, chain: "BASE", token: "USDC", payerAddress: payer });
    expect(answer.status).toBe(200);
    expect(schemaErrors("SecurePaymentIntent", answer.body)).toBe("");
    expect(answer.body).toEqual({
      intentId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      paymentReference: await paymentReferenceOf(requestId),
      txHash,
      isListening: true,
      payerAddress: payer,
    });

    const locked = await check(token);
    expect(problemErrors(locked, "/problems/secure-payment-in-progress", 423)).toEqual([]);
    expect(locked.body.detail).toBe(
      `A payment of the secure payment ${token} was submitted (transaction ${txHash}) and is still executing; do not pay it again.`,
    );
    expect(locked.body.error).toBe("Locked");
    problemErrors(
      await server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`),
      "/problems/secure-payment-in-progress",
      423,
    );

    // A second report of the same link keeps its intent.
    const again = await report(token, { txHash, chain: "BASE", token: "USDC" });
    expect(again.body).toEqual({ ...answer.body });

    const recorded = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid", txHash },
    });
    expect(recorded.status).toBe(201);
    problemErrors(await check(token), "/problems/secure-payment-completed", 409);
    problemErrors(
      await report(token, { txHash, chain: "BASE", token: "USDC" }),
      "/problems/secure-payment-completed",
      409,
    );
  });

  it("holds the link for a Safe transaction until its deadline passes; its txHash then holds it again", async () => {
    const { token } = await createSecurePayment(server);
    const deadline = startSeconds + 600;
    const answer = await report(token, {
      safeTxHash,
      safePaymentDeadline: deadline,
      chain: "POLYGON",
      token: "USDC",
      executionKind: "evm_cross_chain",
    });
    expect(answer.body).toMatchObject({ safeTxHash, safePaymentDeadline: deadline, isListening: true });
    expect(answer.body.txHash).toBeUndefined();
    expect((await check(token)).status).toBe(423);
    try {
      await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 600 } });
      expect((await check(token)).status).toBe(200);
      // The Safe executed after all: its transaction holds the link, whatever the deadline.
      const executed = await report(token, { txHash, chain: "POLYGON", token: "USDC" });
      expect(executed.body).toMatchObject({
        intentId: answer.body.intentId,
        txHash,
        safeTxHash,
        safePaymentDeadline: deadline,
        isListening: true,
      });
      expect((await check(token)).status).toBe(423);
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: startInstant } });
    }
  });

  it("names the field of a report without a hash, or with a deadline that is misplaced or passed", async () => {
    const { token } = await createSecurePayment(server);
    expect(
      problemErrors(
        await report(token, { chain: "BASE", token: "USDC" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual([
      {
        path: "/body/txHash",
        message:
          "is missing: send the broadcast transaction's txHash, or the safeTxHash of a Safe transaction",
      },
    ]);
    expect(
      problemErrors(
        await report(token, { txHash, safePaymentDeadline: startSeconds + 60, chain: "BASE", token: "USDC" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual([{ path: "/body/safePaymentDeadline", message: "is only taken together with safeTxHash" }]);
    expect(
      problemErrors(
        await report(token, { safeTxHash, safePaymentDeadline: startSeconds, chain: "BASE", token: "USDC" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual([
      {
        path: "/body/safePaymentDeadline",
        message: `has passed (it is ${startInstant}, now is ${startInstant}): the Safe transaction can no longer execute`,
      },
    ]);
    const malformed = await report(token, { txHash: "0x1234", chain: "SOLANA", token: "USDC" });
    expect(
      problemErrors(malformed, "/problems/validation-failed", 400)
        .map((issue) => issue.path)
        .sort(),
    ).toEqual(["/body/chain", "/body/txHash"]);
    // Nothing was recorded by the refused reports.
    expect((await check(token)).status).toBe(200);
    expect((await server.server.store.securePayments.get(token))?.intent).toBeUndefined();
  });

  it("refuses a batch link, naming the token, and answers the token check's 403 and 404", async () => {
    const batch = await createSecurePayment(server, [usdcOnBase("10"), usdcOnBase("20")]);
    expect(
      problemErrors(
        await report(batch.token, { txHash, chain: "BASE", token: "USDC" }),
        "/problems/validation-failed",
        400,
      ),
    ).toEqual([
      {
        path: "/path/token",
        message: "is a batch link of 2 requests: a payment is reported for a single secure payment",
      },
    ]);
    const { token } = await createSecurePayment(server);
    await server.call("PATCH", `/sandbox/secure-payments/${token}`, { body: { status: "invalidated" } });
    problemErrors(
      await report(token, { txHash, chain: "BASE", token: "USDC" }),
      "/problems/secure-payment-not-payable",
      403,
    );
    problemErrors(
      await report("01KX45HY43KWJRP1XPA7Z3DJ8F", { txHash, chain: "BASE", token: "USDC" }),
      "/problems/not-found",
      404,
    );
  });

  it("keeps a payout link with a payment in progress out of a batch", async () => {
    const link = async () =>
      (
        await server.call("POST", "/v2/secure-payments/payouts", {
          body: { recipient: payer, network: "base", currency: "USDC-base", amount: "10" },
        })
      ).body as { token: string };
    const [first, second] = [await link(), await link()];
    expect((await report(first.token, { txHash, chain: "BASE", token: "USDC" })).status).toBe(200);
    const joined = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [first.token, second.token] },
    });
    expect(problemErrors(joined, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/tokens/0", message: "has a payment in progress; wait until it is recorded" },
    ]);
  });
});
