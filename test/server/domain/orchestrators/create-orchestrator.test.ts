import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../../src/server/index.ts";
import { asOtherAccount, configWithOtherAccount } from "../../fixtures.ts";
import {
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";
import { asOrchestrator } from "./orchestrator-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

describe("createOrchestrator (POST /v2/orchestrators)", () => {
  it("creates an orchestrator of the account and answers its key once, keeping only the key's hash", async () => {
    const answer = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorName: "Northwind Checkout", orchestratorContactEmail: "help@northwind.example" },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(schemaErrors("OrchestratorCreated", answer.body)).toBe("");
    const { orchestrator, key, rawKey } = answer.body;
    expect(rawKey).toMatch(/^orc_live_[0-9a-f]{32}$/);
    expect(orchestrator).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "Northwind Checkout",
      supportEmail: "help@northwind.example",
      status: "active",
      createdAt: startInstant,
      updatedAt: startInstant,
    });
    expect(key).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      orchestratorId: orchestrator.id,
      keyPrefix: rawKey.slice(0, 13),
      status: "active",
      createdAt: startInstant,
      updatedAt: startInstant,
    });
    const stored = await server.server.store.orchestrators.get(orchestrator.id);
    expect(stored?.accountId).toBe("acct_sandbox");
    expect(stored?.keyHash).toBe(createHash("sha256").update(rawKey).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(rawKey);
    // The key now authenticates the orchestrator operations.
    const listed = await server.call("GET", "/v2/orchestrators/webhooks", asOrchestrator(rawKey));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ webhooks: [] });
  });

  it("takes a name alone, and lets names repeat", async () => {
    const first = await server.call("POST", "/v2/orchestrators", { body: { orchestratorName: "Twin" } });
    const second = await server.call("POST", "/v2/orchestrators", { body: { orchestratorName: "Twin" } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.orchestrator.supportEmail).toBeNull();
    expect(first.body.orchestrator.id).not.toBe(second.body.orchestrator.id);
    expect(first.body.rawKey).not.toBe(second.body.rawKey);
  });

  it("refuses a body without a name, naming the field", async () => {
    const answer = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorContactEmail: "a@b.example" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/orchestratorName" }),
    ]);
  });

  it("takes no client ID nor orchestrator key: either answers 401", async () => {
    const byClientId = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorName: "Nope" },
      auth: "clientId",
    });
    expect(byClientId.status).toBe(401);
    const byOrchestrator = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorName: "Nope" },
      ...asOrchestrator(),
    });
    expect(byOrchestrator.status).toBe(401);
  });
});

describe("the orchestrator key (x-orchestrator-key)", () => {
  it("is the only credential of the orchestrator operations: none, an unknown key or an API key answer 401", async () => {
    const none = await server.call("GET", "/v2/orchestrators/client-ids", { auth: "none" });
    expect(problemErrors(none, "/problems/unauthorized", 401)).toEqual([]);
    expect(none.body.detail).toBe(
      "Send an orchestrator key in x-orchestrator-key; this operation takes no other credential.",
    );
    const unknown = await server.call(
      "GET",
      "/v2/orchestrators/client-ids",
      asOrchestrator("orc_unknown_key_000000"),
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toBe("The orchestrator key in x-orchestrator-key is not recognised.");
    expect(unknown.text).not.toContain("orc_unknown_key_000000");
    const apiKey = await server.call("GET", "/v2/orchestrators/client-ids");
    expect(apiKey.status).toBe(401);
  });

  it("the sandbox's sample key belongs to the sample account's seeded orchestrator", async () => {
    const answer = await server.call("GET", "/v2/orchestrators/client-ids", asOrchestrator());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ links: [], total: 0, page: 1, limit: 50 });
    const stored = await server.server.store.orchestrators.get(sampleCredentials.orchestratorId);
    expect(stored).toMatchObject({ accountId: "acct_sandbox", name: "Sandbox orchestrator" });
  });

  it("an orchestrator created by another account belongs to that account", async () => {
    const created = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorName: "Other platform" },
      ...asOtherAccount,
    });
    expect(created.status).toBe(201);
    const stored = await server.server.store.orchestrators.get(created.body.orchestrator.id);
    expect(stored?.accountId).toBe("acct_other");
  });
});
