import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../../src/server/index.ts";
import { problemErrors, schemaErrors, startInstant, type TestServer } from "../../helpers.ts";
import { fauSepolia } from "../../payee-destination-support.ts";
import { startWebhookServer } from "../../webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../../webhooks/receiver.ts";
import { sessionCookieOf, signInWithWallet, withSession } from "../auth/sign-in.ts";
import { asOrchestrator } from "./orchestrator-support.ts";

let server: TestServer | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await hook?.close();
  hook = undefined;
});

async function start(): Promise<TestServer> {
  server = await startWebhookServer();
  return server;
}

/** An intent of the sandbox orchestrator; answers its id and token. */
async function createIntent(on: TestServer, body: Record<string, unknown> = {}) {
  const answer = await on.call("POST", "/v2/orchestrators/client-id-link-intents", {
    body: { clientIdName: "Harbour Books storefront", domains: ["https://books.example.com"], ...body },
    ...asOrchestrator(),
  });
  if (answer.status !== 201) throw new Error(`intent refused: ${answer.text}`);
  return { id: answer.body.intent.id as string, token: answer.body.intent.accessToken as string };
}

/** A new wallet, signed in (an account of its own), with an active destination in FAU on Sepolia. */
async function recipient(on: TestServer, withDestination = true) {
  const key = generatePrivateKey();
  const wallet = privateKeyToAccount(key);
  const as = withSession((await signInWithWallet(on, key)).cookie);
  const destination = withDestination
    ? (await on.call("POST", "/v1/payee-destination", { ...as, body: fauSepolia })).body
    : undefined;
  return { wallet, as, destination };
}

const intentPath = (token: string) => `/v1/client-id-links/intents/${token}`;

describe("checkClientIdLinkIntent (GET /v1/client-id-links/intents/{token})", () => {
  it("answers the name the client ID will take, and the orchestrator's branding once it has one", async () => {
    const on = await start();
    const { token } = await createIntent(on);
    const { as } = await recipient(on, false);
    const plain = await on.call("GET", intentPath(token), as);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ valid: true, clientIdName: "Harbour Books storefront" });
    const branding = await on.call("POST", "/v2/orchestrators/branding", {
      body: { primaryActionColor: "#1d4ed8" },
      ...asOrchestrator(),
    });
    expect(branding.status, branding.text).toBe(201);
    const branded = await on.call("GET", intentPath(token), as);
    expect(schemaErrors("ClientIdLinkIntentCheck", branded.body)).toBe("");
    expect(branded.body).toEqual({
      valid: true,
      clientIdName: "Harbour Books storefront",
      branding: branding.body,
    });
  });

  it("answers an unknown token 404 and an expired intent 403, each with its code", async () => {
    const on = await start();
    const { token } = await createIntent(on);
    const { as } = await recipient(on, false);
    const unknown = await on.call("GET", intentPath("lit_00000000000000000000000000000000"), as);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      code: "LINK_INTENT_NOT_FOUND",
      detail: "No link intent has this token.",
    });
    // Seven days later, by the orchestrator's account's clock.
    const moved = await on.call("POST", "/sandbox/clock", { body: { advanceSeconds: 7 * 24 * 60 * 60 } });
    expect(moved.status, moved.text).toBe(200);
    const expired = await on.call("GET", intentPath(token), as);
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({
      type: "/problems/forbidden",
      code: "LINK_INTENT_EXPIRED",
      detail: "This link intent expired at 2026-04-19T10:00:00.000Z; ask the orchestrator for a new one.",
    });
  });

  it("refuses a call without a session (401)", async () => {
    const on = await start();
    const { token } = await createIntent(on);
    expect((await on.call("GET", intentPath(token), { auth: "none" })).status).toBe(401);
  });
});

describe("completeClientIdLinkIntent (POST /v1/client-id-links/intents/{token})", () => {
  it("makes a client ID of the wallet's account, bound to its destination and linked, and tells the orchestrator", async () => {
    hook = await startReceiver();
    const on = await start();
    const webhook = await on.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: hook.url },
      ...asOrchestrator(),
    });
    const intent = await createIntent(on, { externalId: "merchant_4821" });
    const { wallet, as, destination } = await recipient(on);

    const answer = await on.call("POST", intentPath(intent.token), {
      ...as,
      body: { kyt: { provider: "merklescience" } },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(schemaErrors("ClientIdLinkIntentCompleted", answer.body)).toBe("");
    const { clientId, link } = answer.body;
    expect(answer.body).toEqual({
      ok: true,
      clientId: {
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        clientId: expect.stringMatching(/^cli_[0-9a-f]{32}$/),
        label: "Harbour Books storefront",
        allowedDomains: ["https://books.example.com"],
        feePercentage: null,
        feeAddress: null,
        operatorWalletAddress: null,
        defaultPreApprovalExpiry: null,
        defaultAuthorizationExpiry: null,
        status: "active",
        createdAt: startInstant,
        updatedAt: startInstant,
        lastUsedAt: null,
        payeeDestinationId: destination.destinationId,
      },
      link: {
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        clientIdId: clientId.id,
        orchestratorId: sampleCredentials.orchestratorId,
        status: "active",
        consentedAt: startInstant,
        createdAt: startInstant,
        updatedAt: startInstant,
        clientId: clientId.clientId,
        kyt: { control: "recipient", providers: [{ provider: "merklescience", priority: 0 }] },
      },
    });
    // The client ID is the wallet's account's; the orchestrator lists the link.
    expect((await on.call("GET", `/v1/client-ids/${clientId.id}`, as)).body).toEqual(clientId);
    const listed = await on.call("GET", "/v2/orchestrators/client-ids", asOrchestrator());
    expect(listed.body.links).toContainEqual(link);

    await on.server.webhooks.settled();
    expect(hook.received).toHaveLength(1);
    const [delivered] = hook.received;
    if (!delivered) throw new Error("no delivery");
    expect(hasValidSignature(delivered, webhook.body.secret)).toBe(true);
    expect(delivered.headers["x-request-network-test"]).toBeUndefined();
    const payload = JSON.parse(delivered.body.toString("utf8"));
    expect(schemaErrors("ClientIdLinkedEvent", payload)).toBe("");
    expect(payload).toEqual({
      event: "client_id.linked",
      clientId: clientId.clientId,
      orchestratorId: sampleCredentials.orchestratorId,
      linkId: link.id,
      intentId: intent.id,
      externalId: "merchant_4821",
      destinationId: destination.destinationId,
      destinationWalletAddress: wallet.address.toLowerCase(),
      chain: "sepolia",
      currency: "FAU",
      timestamp: startInstant,
    });

    // The intent is used: checking or completing it again answers 403 LINK_INTENT_USED.
    const again = await on.call("POST", intentPath(intent.token), {
      ...as,
      body: { kyt: { provider: null } },
    });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe("LINK_INTENT_USED");
    expect((await on.call("GET", intentPath(intent.token), as)).body.code).toBe("LINK_INTENT_USED");
  });

  it("takes the orchestrator's screening plan when the intent has one, without a body", async () => {
    const on = await start();
    const intent = await createIntent(on, {
      kyt: { providers: [{ provider: "hypernative", policyId: "policy-1" }, { provider: "merklescience" }] },
    });
    const { as } = await recipient(on);
    const answer = await on.call("POST", intentPath(intent.token), as);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.link.kyt).toEqual({
      control: "orchestrator",
      providers: [
        { provider: "hypernative", policyId: "policy-1", priority: 0 },
        { provider: "merklescience", priority: 1 },
      ],
    });
  });

  it("refuses, keeping the intent open: no screening choice (400), no destination (400), an email session (403)", async () => {
    const on = await start();
    const intent = await createIntent(on);
    const withDestination = await recipient(on);
    const noChoice = await on.call("POST", intentPath(intent.token), withDestination.as);
    expect(problemErrors(noChoice, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/kyt",
    ]);
    const withoutDestination = await recipient(on, false);
    const noDestination = await on.call("POST", intentPath(intent.token), {
      ...withoutDestination.as,
      body: { kyt: { provider: null } },
    });
    expect(noDestination.status).toBe(400);
    expect(noDestination.body.type).toBe("/problems/invalid-state");
    const registered = await on.call("POST", "/v1/auth/register", {
      auth: "none",
      body: { email: "recipient@example.com", password: "correct horse battery staple" },
    });
    const asEmail = withSession(sessionCookieOf(registered));
    const emailSession = await on.call("POST", intentPath(intent.token), {
      ...asEmail,
      body: { kyt: { provider: null } },
    });
    expect(emailSession.status).toBe(403);
    expect(emailSession.body.type).toBe("/problems/forbidden");
    expect((await on.call("GET", intentPath(intent.token), asEmail)).body).toEqual({
      valid: true,
      clientIdName: "Harbour Books storefront",
    });
    expect((await on.call("GET", "/v1/client-ids", withDestination.as)).body).toEqual([]);
  });
});

describe("updateClientIdLinkKyt (PUT /v1/client-id-links/{clientIdId}/kyt)", () => {
  it("changes the screening the recipient chose, as the orchestrator then lists it", async () => {
    const on = await start();
    const intent = await createIntent(on);
    const { as } = await recipient(on);
    const completed = await on.call("POST", intentPath(intent.token), {
      ...as,
      body: { kyt: { provider: null } },
    });
    expect(completed.body.link.kyt).toEqual({ control: "recipient", providers: [] });
    const path = `/v1/client-id-links/${completed.body.clientId.id}/kyt`;
    const answer = await on.call("PUT", path, { ...as, body: { provider: "hypernative" } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      ...completed.body.link,
      kyt: { control: "recipient", providers: [{ provider: "hypernative", priority: 0 }] },
    });
    const listed = await on.call("GET", "/v2/orchestrators/client-ids", asOrchestrator());
    expect(listed.body.links).toContainEqual(answer.body);
  });

  it("refuses a link whose screening is the orchestrator's (400) and a client ID not linked (404)", async () => {
    const on = await start();
    const intent = await createIntent(on, { kyt: { providers: [{ provider: "hypernative" }] } });
    const { as } = await recipient(on);
    const completed = await on.call("POST", intentPath(intent.token), as);
    const planned = await on.call("PUT", `/v1/client-id-links/${completed.body.clientId.id}/kyt`, {
      ...as,
      body: { provider: null },
    });
    expect(planned.status).toBe(400);
    expect(planned.body.type).toBe("/problems/invalid-state");
    const own = await on.call("POST", "/v1/client-ids", {
      ...as,
      body: { label: "Own", allowedDomains: ["https://own.example.com"] },
    });
    const unlinked = await on.call("PUT", `/v1/client-id-links/${own.body.id}/kyt`, {
      ...as,
      body: { provider: null },
    });
    expect(unlinked.status).toBe(404);
    expect(unlinked.body.detail).toBe(`The client ID ${own.body.id} is not linked to an orchestrator.`);
  });

  it("answers another account's client ID as unknown", async () => {
    const on = await start();
    const intent = await createIntent(on);
    const { as } = await recipient(on);
    const completed = await on.call("POST", intentPath(intent.token), {
      ...as,
      body: { kyt: { provider: null } },
    });
    const stranger = await recipient(on, false);
    const id = completed.body.clientId.id;
    const answer = await on.call("PUT", `/v1/client-id-links/${id}/kyt`, {
      ...stranger.as,
      body: { provider: null },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe(`No client ID of your account has the id ${id}.`);
  });
});
