import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  payee,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";
import { asOrchestrator, createClientId, createOrchestrator } from "./orchestrator-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const fee = { flow: "incoming", feeBearer: "recipient", bps: 100, usdCap: "20", evmRecipientAddress: payee };

describe("createOrchestratorFeeConfig, listOrchestratorFeeConfigs, updateOrchestratorFeeConfig and disableOrchestratorFeeConfig", () => {
  it("creates the orchestrator's default, changes it, lists it and disables it", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const created = await server.call("POST", "/v2/orchestrators/fee-configs", { body: fee, ...as });
    expect(created.status, created.text).toBe(201);
    expect(schemaErrors("OrchestratorFeeConfig", created.body)).toBe("");
    const config = {
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      feeType: "orchestrator_fee",
      bps: 100,
      usdCap: "20",
      feeBearer: "recipient",
      evmRecipientAddress: payee,
      tronRecipientAddress: null,
      status: "active",
      flow: "incoming",
      orchestratorId: orchestrator.id,
      createdAt: startInstant,
      updatedAt: startInstant,
    };
    expect(created.body).toEqual(config);
    const { id } = created.body;

    const duplicate = await server.call("POST", "/v2/orchestrators/fee-configs", { body: fee, ...as });
    expect(problemErrors(duplicate, "/problems/already-exists", 409)).toEqual([]);

    const updated = await server.call("PATCH", `/v2/orchestrators/fee-configs/${id}`, {
      body: { bps: 150, feeBearer: "payer" },
      ...as,
    });
    expect(updated.body).toEqual({ ...config, id, bps: 150, feeBearer: "payer" });

    const disabled = await server.call("DELETE", `/v2/orchestrators/fee-configs/${id}`, as);
    expect(disabled.body).toEqual({ ...config, id, bps: 150, feeBearer: "payer", status: "disabled" });
    const listed = await server.call("GET", "/v2/orchestrators/fee-configs", as);
    expect(listed.body).toEqual([disabled.body]);

    const frozen = await server.call("PATCH", `/v2/orchestrators/fee-configs/${id}`, {
      body: { bps: 10 },
      ...as,
    });
    expect(problemErrors(frozen, "/problems/invalid-state", 400)).toEqual([]);
    // Once disabled, a new default may be created.
    expect((await server.call("POST", "/v2/orchestrators/fee-configs", { body: fee, ...as })).status).toBe(
      201,
    );
  });

  it("keeps overrides of linked client IDs apart from the default", async () => {
    const orchestrator = await createOrchestrator(server);
    const as = asOrchestrator(orchestrator.key);
    const client = await createClientId(server);
    const notLinked = await server.call("POST", "/v2/orchestrators/fee-configs", {
      body: { ...fee, clientId: client.clientId },
      ...as,
    });
    expect(problemErrors(notLinked, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/clientId",
        message: `no client ID linked to this orchestrator has the value ${client.clientId}`,
      },
    ]);
    await server.call("POST", "/v2/orchestrators/client-ids", { body: { clientId: client.clientId }, ...as });
    const override = await server.call("POST", "/v2/orchestrators/fee-configs", {
      body: { ...fee, bps: 50, clientId: client.clientId },
      ...as,
    });
    expect(override.status).toBe(201);
    expect(override.body).toMatchObject({ bps: 50, clientIdId: client.id, clientId: client.clientId });
    expect(override.body).not.toHaveProperty("orchestratorId");
    const defaults = await server.call("GET", "/v2/orchestrators/fee-configs", as);
    expect(defaults.body).toEqual([]);
    const overrides = await server.call(
      "GET",
      `/v2/orchestrators/fee-configs?clientId=${client.clientId}`,
      as,
    );
    expect(overrides.body).toEqual([override.body]);
    const wrongClient = await server.call(
      "DELETE",
      `/v2/orchestrators/fee-configs/${override.body.id}?clientId=cli_other`,
      as,
    );
    expect(problemErrors(wrongClient, "/problems/not-found", 404)).toEqual([]);
  });

  it("refuses a fee without a recipient, and a bps out of range, naming the field", async () => {
    const as = asOrchestrator((await createOrchestrator(server)).key);
    const noRecipient = await server.call("POST", "/v2/orchestrators/fee-configs", {
      body: { flow: "outgoing", feeBearer: "payer", bps: 25 },
      ...as,
    });
    expect(problemErrors(noRecipient, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/evmRecipientAddress",
        message: "a fee above 0 bps needs a recipient: send evmRecipientAddress or tronRecipientAddress",
      },
    ]);
    const tooHigh = await server.call("POST", "/v2/orchestrators/fee-configs", {
      body: { ...fee, bps: 10001 },
      ...as,
    });
    expect(problemErrors(tooHigh, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/bps" }),
    ]);
  });

  it("another orchestrator's configuration answers 404", async () => {
    const owner = await createOrchestrator(server, "owner");
    const other = await createOrchestrator(server, "other");
    const created = await server.call("POST", "/v2/orchestrators/fee-configs", {
      body: fee,
      ...asOrchestrator(owner.key),
    });
    const patch = await server.call("PATCH", `/v2/orchestrators/fee-configs/${created.body.id}`, {
      body: { bps: 1 },
      ...asOrchestrator(other.key),
    });
    expect(problemErrors(patch, "/problems/not-found", 404)).toEqual([]);
    const disable = await server.call(
      "DELETE",
      `/v2/orchestrators/fee-configs/${created.body.id}`,
      asOrchestrator(other.key),
    );
    expect(disable.status).toBe(404);
    expect(
      (await server.call("GET", "/v2/orchestrators/fee-configs", asOrchestrator(other.key))).body,
    ).toEqual([]);
  });
});
