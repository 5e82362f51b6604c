import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTypedData } from "../../../../src/wire/typed-data.ts";
import {
  asOtherAccount,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

// A local key stands for the payer's wallet; another for a wallet that is not the payer's.
const wallet = privateKeyToAccount("0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6");
const stranger = privateKeyToAccount("0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function newIntent(chain = "OPTIMISM", token = "USDC", amount = "50") {
  const created = await server.call("POST", "/v2/request", {
    body: { payee, amount, invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
  });
  const { requestId } = created.body;
  const pay = await server.call(
    "GET",
    `/v2/request/${requestId}/pay?chain=${chain}&token=${token}&wallet=${wallet.address}`,
  );
  expect(pay.status).toBe(200);
  return { requestId, pay: pay.body };
}

/** What the payer's wallet sends: each issued piece of typed data, signed, with its nonce and deadline. */
async function sign(typedDataJson: string, signer = wallet) {
  const typedData = readTypedData(typedDataJson);
  return {
    signature: await signer.signTypedData(typedData as never),
    nonce: String(typedData.message.nonce),
    deadline: String(typedData.message.deadline),
  };
}

const submit = (paymentIntentId: string, body: unknown, options = {}) =>
  server.call("POST", `/v2/request/payment-intents/${paymentIntentId}`, { body, ...options });

describe("sendPaymentIntent (POST /v2/request/payment-intents/{paymentIntentId})", () => {
  it("checks both signatures, pays the request as a cross-chain payment and answers 200 with no body", async () => {
    const { requestId, pay } = await newIntent();
    expect(pay.metadata).toMatchObject({ routeType: "crosschain", supportsEIP2612: true });
    const answer = await submit(pay.paymentIntentId, {
      signedPaymentIntent: await sign(pay.paymentIntent),
      signedApprovalPermit: await sign(pay.approvalPermitPayload),
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");

    const status = await server.call("GET", `/v2/request/${requestId}`);
    expect(status.body).toMatchObject({ hasBeenPaid: true, status: "paid", payments: [{ amount: "50" }] });
    const search = await server.call("GET", `/v2/payments?requestId=${requestId}`);
    expect(search.body.payments).toMatchObject([
      {
        amount: "50",
        type: "crosschain",
        sourceNetwork: "optimism",
        destinationNetwork: "base",
        sourceTxHash: null,
        destinationTxHash: status.body.txHash,
      },
    ]);
  });

  it("takes the intent alone when no permit was issued (USDT sends an approval instead)", async () => {
    const { requestId, pay } = await newIntent("ARBITRUM", "USDT");
    expect(pay.approvalPermitPayload).toBeNull();
    expect(pay.approvalCalldata).not.toBeNull();
    const answer = await submit(pay.paymentIntentId, { signedPaymentIntent: await sign(pay.paymentIntent) });
    expect(answer.status).toBe(200);
    expect((await server.call("GET", `/v2/request/${requestId}`)).body.hasBeenPaid).toBe(true);
  });

  it("refuses another wallet's signature, other nonces and deadlines, and changes nothing", async () => {
    const { requestId, pay } = await newIntent();
    const good = await sign(pay.paymentIntent);
    const answer = await submit(pay.paymentIntentId, {
      signedPaymentIntent: { ...(await sign(pay.paymentIntent, stranger)), nonce: "1", deadline: "2" },
      signedApprovalPermit: await sign(pay.approvalPermitPayload),
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/signedPaymentIntent/nonce",
        message: `must be the nonce of the payment intent issued, ${good.nonce}, got "1"`,
      },
      {
        path: "/body/signedPaymentIntent/deadline",
        message: `must be the deadline of the payment intent issued, ${good.deadline}, got "2"`,
      },
      {
        path: "/body/signedPaymentIntent/signature",
        message: `is not a signature of the payment intent by the payer ${wallet.address}`,
      },
    ]);
    expect((await server.call("GET", `/v2/request/${requestId}`)).body.hasBeenPaid).toBe(false);
  });

  it("refuses a payer signature over typed data other than what was issued", async () => {
    const { pay } = await newIntent();
    const issued = readTypedData(pay.paymentIntent);
    const altered = { ...issued, message: { ...issued.message, spender: wallet.address } };
    const answer = await submit(pay.paymentIntentId, {
      signedPaymentIntent: {
        signature: await wallet.signTypedData(altered as never),
        nonce: String(issued.message.nonce),
        deadline: String(issued.message.deadline),
      },
      signedApprovalPermit: await sign(pay.approvalPermitPayload),
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/signedPaymentIntent/signature",
    ]);
  });

  it("requires the permit's signature when a permit was issued, and refuses one that was not", async () => {
    const withPermit = await newIntent();
    const missing = await submit(withPermit.pay.paymentIntentId, {
      signedPaymentIntent: await sign(withPermit.pay.paymentIntent),
    });
    expect(problemErrors(missing, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/signedApprovalPermit",
        message: "is required: this intent was issued with approvalPermitPayload, sign it too",
      },
    ]);
    const badPermit = await submit(withPermit.pay.paymentIntentId, {
      signedPaymentIntent: await sign(withPermit.pay.paymentIntent),
      signedApprovalPermit: await sign(withPermit.pay.approvalPermitPayload, stranger),
    });
    expect(problemErrors(badPermit, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/signedApprovalPermit/signature",
        message: `is not a signature of the approval permit by the payer ${wallet.address}`,
      },
    ]);
    const withoutPermit = await newIntent("ARBITRUM", "USDT");
    const unexpected = await submit(withoutPermit.pay.paymentIntentId, {
      signedPaymentIntent: await sign(withoutPermit.pay.paymentIntent),
      signedApprovalPermit: await sign(withPermit.pay.approvalPermitPayload),
    });
    expect(problemErrors(unexpected, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/signedApprovalPermit",
        message: "is not expected: this intent was issued without a permit to sign",
      },
    ]);
  });

  it("takes an intent once, and not after its deadline", async () => {
    const { pay } = await newIntent();
    const body = {
      signedPaymentIntent: await sign(pay.paymentIntent),
      signedApprovalPermit: await sign(pay.approvalPermitPayload),
    };
    expect((await submit(pay.paymentIntentId, body)).status).toBe(200);
    const again = await submit(pay.paymentIntentId, body);
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(
      `Payment intent ${pay.paymentIntentId} was already submitted; ask GET /v2/request/{requestId}/pay for a new one to pay again.`,
    );

    const late = await newIntent();
    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 3601 } });
    try {
      const answer = await submit(late.pay.paymentIntentId, {
        signedPaymentIntent: await sign(late.pay.paymentIntent),
        signedApprovalPermit: await sign(late.pay.approvalPermitPayload),
      });
      problemErrors(answer, "/problems/invalid-state", 400);
      expect(answer.body.detail).toMatch(/^Payment intent \w+ expired at 2026-04-12T11:00:00.000Z;/);
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: -3601 } });
    }
  });

  it("refuses an intent for a request paid meanwhile", async () => {
    const { requestId, pay } = await newIntent();
    await server.call("POST", `/sandbox/requests/${requestId}/payments`, { body: { outcome: "paid" } });
    const answer = await submit(pay.paymentIntentId, {
      signedPaymentIntent: await sign(pay.paymentIntent),
      signedApprovalPermit: await sign(pay.approvalPermitPayload),
    });
    problemErrors(answer, "/problems/invalid-state", 400);
    expect(answer.body.detail).toBe(
      `Request ${requestId} is already paid; this intent can no longer be submitted.`,
    );
  });

  it("answers 404 for an unknown intent and for another account's", async () => {
    const { pay } = await newIntent();
    const body = { signedPaymentIntent: await sign(pay.paymentIntent) };
    problemErrors(await submit("01KP3G7ZQ6V2D8W4N5R9T1XHJC", body), "/problems/not-found", 404);
    const foreign = await submit(pay.paymentIntentId, body, asOtherAccount);
    problemErrors(foreign, "/problems/not-found", 404);
  });
});
