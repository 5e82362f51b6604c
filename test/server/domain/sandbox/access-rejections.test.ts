import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../../src/server/index.ts";
import { createSchemaValidator, describeErrors } from "../../../../src/spec/schema-validator.ts";
import { loadBundledSpec } from "../../../../src/spec/spec-document.ts";
import { verifyWebhookSignature } from "../../../../src/webhooks/verify.ts";
import { problemErrors, startInstant, type TestServer, usdcOnBase } from "../../helpers.ts";
import { registerEndpoint, startWebhookServer } from "../../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../../webhooks/receiver.ts";

const validator = createSchemaValidator(loadBundledSpec());
const refused = "0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570";
const refusedLower = refused.toLowerCase();
const otherWallet = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";

let server: TestServer;
let hook: Receiver;
let secret: string;
beforeAll(async () => {
  hook = await startReceiver();
  server = await startWebhookServer();
  secret = (await registerEndpoint(server, hook.url)).secret;
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

const later = (ms: number) => new Date(Date.parse(startInstant) + ms).toISOString();

async function reject(token: string, wallet: string) {
  const answer = await server.call("POST", `/sandbox/secure-payments/${token}/access-rejections`, {
    body: { wallet },
  });
  await server.server.webhooks.settled();
  return answer;
}

async function advance(seconds: number) {
  const moved = await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: seconds } });
  expect(moved.status, moved.text).toBe(200);
}

/** The access_rejected deliveries received so far, as payloads; each verifies and validates. */
function rejections(): Record<string, unknown>[] {
  return hook.received
    .map((webhook) => {
      const signature = webhook.headers["x-request-network-signature"];
      expect(verifyWebhookSignature({ secret, rawBody: webhook.body, signature })).toBe(true);
      return JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>;
    })
    .filter((payload) => payload.event === "secure_payment.access_rejected");
}

describe("rejectSandboxSecurePaymentAccess (POST /sandbox/secure-payments/{token}/access-rejections)", () => {
  it("sends secure_payment.access_rejected once per wallet and link every 10 minutes of the sandbox clock", async () => {
    const link = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      body: { requests: [usdcOnBase("15")] },
    });
    expect(link.status, link.text).toBe(201);
    const { token } = link.body;
    const requestId = link.body.requestIds[0] as string;

    const first = await reject(token, refused);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      sent: true,
      token,
      requestId,
      wallet: refusedLower,
      suppressedUntil: later(600_000),
    });
    const expectedPayload = {
      event: "secure_payment.access_rejected",
      requestId,
      clientId: sampleCredentials.clientId,
      attemptedPayerWalletAddress: refusedLower,
      timestamp: startInstant,
    };
    expect(rejections()).toEqual([expectedPayload]);
    expect(
      describeErrors(
        validator.errorsFor(
          { $ref: "#/components/schemas/SecurePaymentAccessRejectedEvent" },
          rejections()[0],
        ),
      ),
    ).toBe("");

    // 9 minutes 59 seconds later, the same wallet (in another spelling) sends nothing.
    await advance(599);
    const repeat = await reject(token, refusedLower);
    expect(repeat.body).toEqual({
      sent: false,
      token,
      requestId,
      wallet: refusedLower,
      suppressedUntil: later(600_000),
    });
    expect(rejections()).toHaveLength(1);

    // Another wallet is not suppressed.
    const other = await reject(token, otherWallet);
    expect(other.body).toMatchObject({ sent: true, wallet: otherWallet.toLowerCase() });
    expect(rejections()).toHaveLength(2);

    // Once 10 minutes have passed, the first wallet sends again, and is quiet for 10 more.
    await advance(1);
    const again = await reject(token, refused);
    expect(again.body).toEqual({
      sent: true,
      token,
      requestId,
      wallet: refusedLower,
      suppressedUntil: later(1_200_000),
    });
    expect(rejections().at(-1)).toEqual({ ...expectedPayload, timestamp: later(600_000) });
    expect(rejections()).toHaveLength(3);
  });

  it("refuses a link made with the API key, whose event no client ID's webhooks would receive", async () => {
    const link = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase("16")] } });
    const before = rejections().length;
    const answer = await reject(link.body.token, refused);
    problemErrors(answer, "/problems/invalid-state", 400);
    expect(answer.body.detail).toBe(
      `Secure payment ${link.body.token} was created with the API key: secure_payment.access_rejected goes to the webhooks of the client ID a link was created with. Create the link with x-client-id.`,
    );
    expect(rejections()).toHaveLength(before);
  });

  it("answers 404 for an unknown token, and 400 naming a wallet that is no address", async () => {
    const unknown = await reject("01KM9S346Q3D25VT4F5V37E3S3", refused);
    problemErrors(unknown, "/problems/not-found", 404);
    const link = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      body: { requests: [usdcOnBase("17")] },
    });
    const bad = await reject(link.body.token, "not-a-wallet");
    const errors = problemErrors(bad, "/problems/validation-failed", 400);
    expect(errors.map((issue) => issue.path)).toEqual(["/body/wallet"]);
  });
});
