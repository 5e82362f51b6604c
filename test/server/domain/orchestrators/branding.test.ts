import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemErrors, schemaErrors, startTestServer, type TestServer } from "../../helpers.ts";
import { asOrchestrator, createClientId, createOrchestrator } from "./orchestrator-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const colours = {
  logoPath: "/branding/northwind/logo.svg",
  pageBackgroundColor: "#f8fafc",
  primaryActionColor: "#1d4ed8",
};

describe("createOrchestratorBranding, getOrchestratorBranding, updateOrchestratorBranding and removeOrchestratorBranding", () => {
  it("creates, reads, updates and removes the orchestrator's branding", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    expect((await server.call("GET", "/v2/orchestrators/branding", as)).body).toBeNull();

    const created = await server.call("POST", "/v2/orchestrators/branding", { body: colours, ...as });
    expect(created.status, created.text).toBe(201);
    expect(schemaErrors("OrchestratorBranding", created.body)).toBe("");
    const branding = {
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      orchestratorId: orchestrator.id,
      logoPath: "/branding/northwind/logo.svg",
      pageBackgroundColor: "#f8fafc",
      cardBackgroundColor: null,
      primaryActionColor: "#1d4ed8",
      primaryTextColor: null,
      secondaryTextColor: null,
      termsPath: null,
      privacyPath: null,
      displayRequestBranding: false,
    };
    expect(created.body).toEqual(branding);
    expect((await server.call("GET", "/v2/orchestrators/branding", as)).body).toEqual(created.body);

    const again = await server.call("POST", "/v2/orchestrators/branding", { body: colours, ...as });
    expect(problemErrors(again, "/problems/already-exists", 409)).toEqual([]);

    const updated = await server.call("PATCH", "/v2/orchestrators/branding", {
      body: { primaryActionColor: "#b91c1c", displayRequestBranding: true },
      ...as,
    });
    expect(updated.body).toEqual({
      ...created.body,
      primaryActionColor: "#b91c1c",
      displayRequestBranding: true,
    });

    expect((await server.call("DELETE", "/v2/orchestrators/branding", as)).body).toEqual({ removed: true });
    expect((await server.call("DELETE", "/v2/orchestrators/branding", as)).body).toEqual({ removed: false });
    expect((await server.call("GET", "/v2/orchestrators/branding", as)).body).toBeNull();
    const noBranding = await server.call("PATCH", "/v2/orchestrators/branding", {
      body: { logoPath: "/x.svg" },
      ...as,
    });
    expect(problemErrors(noBranding, "/problems/not-found", 404)).toEqual([]);
  });

  it("a linked client ID's override comes first, falling back to the orchestrator's own", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const client = await createClientId(server);
    await server.call("POST", "/v2/orchestrators/client-ids", { body: { clientId: client.clientId }, ...as });
    const own = await server.call("POST", "/v2/orchestrators/branding", { body: colours, ...as });
    const fallback = await server.call("GET", `/v2/orchestrators/branding?clientId=${client.clientId}`, as);
    expect(fallback.body).toEqual(own.body);
    const override = await server.call("POST", "/v2/orchestrators/branding", {
      body: { primaryActionColor: "#047857", clientId: client.clientId },
      ...as,
    });
    expect(override.status).toBe(201);
    expect(override.body).toMatchObject({
      clientIdId: client.id,
      primaryActionColor: "#047857",
      logoPath: null,
    });
    expect(override.body).not.toHaveProperty("orchestratorId");
    expect(
      (await server.call("GET", `/v2/orchestrators/branding?clientId=${client.clientId}`, as)).body,
    ).toEqual(override.body);
    expect((await server.call("GET", "/v2/orchestrators/branding", as)).body).toEqual(own.body);
  });

  it("refuses a bad colour, and an empty update naming the field, and an unlinked client ID as unknown", async () => {
    const as = asOrchestrator((await createOrchestrator(server)).key);
    const colour = await server.call("POST", "/v2/orchestrators/branding", {
      body: { primaryActionColor: "blue" },
      ...as,
    });
    expect(problemErrors(colour, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/primaryActionColor" }),
    ]);
    await server.call("POST", "/v2/orchestrators/branding", { body: colours, ...as });
    const empty = await server.call("PATCH", "/v2/orchestrators/branding", {
      body: { clientId: "cli_x" },
      ...as,
    });
    expect(problemErrors(empty, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "send at least one branding member besides clientId" },
    ]);
    const unlinked = await server.call("GET", "/v2/orchestrators/branding?clientId=cli_nobody", as);
    expect(problemErrors(unlinked, "/problems/not-found", 404)).toEqual([]);
    expect(unlinked.body.detail).toBe("No client ID linked to this orchestrator has the value cli_nobody.");
  });

  it("another orchestrator's branding is not its own", async () => {
    const owner = await createOrchestrator(server, "owner");
    const other = await createOrchestrator(server, "other");
    await server.call("POST", "/v2/orchestrators/branding", { body: colours, ...asOrchestrator(owner.key) });
    expect(
      (await server.call("GET", "/v2/orchestrators/branding", asOrchestrator(other.key))).body,
    ).toBeNull();
    expect(
      (await server.call("DELETE", "/v2/orchestrators/branding", asOrchestrator(other.key))).body,
    ).toEqual({
      removed: false,
    });
  });
});
