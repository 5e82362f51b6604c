import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, configWithOtherAccount } from "../../fixtures.ts";
import {
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";
import { asOrchestrator, createClientId, createOrchestrator } from "./orchestrator-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

describe("linkOrchestratorClientId, listOrchestratorClientIds and unlinkOrchestratorClientId", () => {
  it("links a client ID of the account, lists it, and unlinks it once", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const client = await createClientId(server);

    const linked = await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: client.clientId },
      ...as,
    });
    expect(linked.status, linked.text).toBe(201);
    expect(schemaErrors("OrchestratorClientIdLinked", linked.body)).toBe("");
    const link = {
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      clientIdId: client.id,
      orchestratorId: orchestrator.id,
      status: "active",
      consentedAt: startInstant,
      createdAt: startInstant,
      updatedAt: startInstant,
      clientId: client.clientId,
    };
    expect(linked.body).toEqual({ link, alreadyLinked: false });

    const again = await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: client.clientId },
      ...as,
    });
    expect(again.body).toEqual({ link: linked.body.link, alreadyLinked: true });

    const listed = await server.call("GET", "/v2/orchestrators/client-ids?page=1&limit=10", as);
    expect(listed.body).toEqual({ links: [linked.body.link], total: 1, page: 1, limit: 10 });

    const unlinked = await server.call("DELETE", `/v2/orchestrators/client-ids/${client.clientId}`, as);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({
      link: { ...linked.body.link, status: "revoked", revokedAt: startInstant },
      wasAlreadyRevoked: false,
    });
    const twice = await server.call("DELETE", `/v2/orchestrators/client-ids/${client.clientId}`, as);
    expect(twice.body.wasAlreadyRevoked).toBe(true);
    expect((await server.call("GET", "/v2/orchestrators/client-ids", as)).body).toEqual({
      links: [],
      total: 0,
      page: 1,
      limit: 50,
    });

    // Linking again makes the same link active again.
    const relinked = await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: client.clientId },
      ...as,
    });
    expect(relinked.body).toEqual({ link: { ...link, id: linked.body.link.id }, alreadyLinked: false });
  });

  it("pages the active links, oldest first", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const clients = [
      await createClientId(server, "a"),
      await createClientId(server, "b"),
      await createClientId(server, "c"),
    ];
    for (const client of clients) {
      await server.call("POST", "/v2/orchestrators/client-ids", {
        body: { clientId: client.clientId },
        ...as,
      });
    }
    const second = await server.call("GET", "/v2/orchestrators/client-ids?page=2&limit=2", as);
    expect(second.body.total).toBe(3);
    expect(second.body.links.map((link: { clientId: string }) => link.clientId)).toEqual([
      clients[2]?.clientId,
    ]);
  });

  it("refuses an unknown client ID, another account's, or a revoked one, naming clientId", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const foreign = await server.call("POST", "/v2/client-ids", {
      body: { label: "Theirs", allowedDomains: ["https://other.example.com"] },
      ...asOtherAccount,
    });
    const revoked = await createClientId(server, "revoked");
    await server.call("DELETE", `/v2/client-ids/${revoked.id}`);
    for (const [value, message] of [
      ["cli_unknown", "no client ID of your account has the value cli_unknown"],
      [foreign.body.clientId, `no client ID of your account has the value ${foreign.body.clientId}`],
      [revoked.clientId, "the client ID is revoked; only an active one can be linked"],
    ]) {
      const answer = await server.call("POST", "/v2/orchestrators/client-ids", {
        body: { clientId: value },
        ...as,
      });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body/clientId", message },
      ]);
    }
  });

  it("another orchestrator's links are unknown: unlinking answers 404 and lists show none", async () => {
    const owner = await createOrchestrator(server, "owner");
    const other = await createOrchestrator(server, "other");
    const client = await createClientId(server);
    await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: client.clientId },
      ...asOrchestrator(owner.key),
    });
    const answer = await server.call(
      "DELETE",
      `/v2/orchestrators/client-ids/${client.clientId}`,
      asOrchestrator(other.key),
    );
    expect(problemErrors(answer, "/problems/not-found", 404)).toEqual([]);
    expect(
      (await server.call("GET", "/v2/orchestrators/client-ids", asOrchestrator(other.key))).body.total,
    ).toBe(0);
  });
});

describe("createClientIdLinkIntent (POST /v2/orchestrators/client-id-link-intents)", () => {
  it("creates a single-use intent for 7 days, kept where its token finds it", async () => {
    const orchestrator = await createOrchestrator(server);
    const answer = await server.call("POST", "/v2/orchestrators/client-id-link-intents", {
      body: {
        clientIdName: "Harbour Books storefront",
        domains: ["https://books.example.com", "https://books.example.com"],
        externalId: "merchant_4821",
        kyt: {
          providers: [{ provider: "hypernative", policyId: "policy-1" }, { provider: "merklescience" }],
        },
      },
      ...asOrchestrator(orchestrator.key),
    });
    expect(answer.status, answer.text).toBe(201);
    expect(schemaErrors("ClientIdLinkIntentCreated", answer.body)).toBe("");
    const { intent, url } = answer.body;
    expect(intent).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      accessToken: expect.stringMatching(/^lit_[0-9a-f]{32}$/),
      orchestratorId: orchestrator.id,
      clientIdName: "Harbour Books storefront",
      allowedDomains: ["https://books.example.com"],
      externalId: "merchant_4821",
      kyt: {
        providers: [
          { provider: "hypernative", policyId: "policy-1", priority: 0 },
          { provider: "merklescience", priority: 1 },
        ],
      },
      used: false,
      expiresAt: "2026-04-19T10:00:00.000Z",
      createdAt: startInstant,
      updatedAt: startInstant,
    });
    expect(url).toBe(`https://link.request.network/?token=${intent.accessToken}`);
    const stored = await server.server.store.clientIdLinkIntents.first("accessToken", intent.accessToken);
    expect(stored).toMatchObject({
      id: intent.id,
      accountId: "acct_sandbox",
      orchestratorId: orchestrator.id,
    });
  });

  it("takes a name alone, and refuses a body without one", async () => {
    const minimal = await server.call("POST", "/v2/orchestrators/client-id-link-intents", {
      body: { clientIdName: "Backend" },
      ...asOrchestrator(),
    });
    expect(minimal.status).toBe(201);
    expect(minimal.body.intent).toMatchObject({ allowedDomains: [], externalId: null, kyt: null });
    const missing = await server.call("POST", "/v2/orchestrators/client-id-link-intents", {
      body: { domains: [] },
      ...asOrchestrator(),
    });
    expect(problemErrors(missing, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/clientIdName" }),
    ]);
  });
});
