import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFixedClock,
  createMemoryStore,
  createServer,
  type Store,
  sampleCredentials,
} from "../../../../src/server/index.ts";
import { asOtherAccount, configWithOtherAccount } from "../../fixtures.ts";
import {
  feeAddress,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

const shop = "https://shop.example.com";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

async function create(body: Record<string, unknown>, options = {}) {
  const answer = await server.call("POST", "/v2/client-ids", { body, ...options });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** A browser call with this client ID from `origin` to an operation that accepts client IDs. */
function browserCall(clientId: string, origin: string) {
  return server.call("GET", "/v2/currencies/USD/conversion-routes?network=base", {
    auth: "none",
    headers: { "x-client-id": clientId, origin },
  });
}

describe("createClientId (POST /v2/client-ids)", () => {
  it("creates an active client ID with a ULID id and a cli_ value, readable by getClientId", async () => {
    const created = await create({ label: "Checkout widget", allowedDomains: [shop] });
    expect(schemaErrors("ClientId", created)).toBe("");
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      clientId: expect.stringMatching(/^cli_[0-9a-f]{32}$/),
      label: "Checkout widget",
      allowedDomains: [shop],
      feePercentage: null,
      feeAddress: null,
      operatorWalletAddress: null,
      defaultPreApprovalExpiry: null,
      defaultAuthorizationExpiry: null,
      status: "active",
      createdAt: startInstant,
      updatedAt: startInstant,
      lastUsedAt: null,
    });
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body).toEqual(created);
    const used = await browserCall(created.clientId, shop);
    expect(used.status).toBe(200);
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.lastUsedAt).toBe(startInstant);
  });

  it("keeps a fee with its address, takes null as no fee, and normalises and dedupes the origins", async () => {
    const withFee = await create({
      label: "With fee",
      allowedDomains: ["https://Shop.Example.com/", "https://shop.example.com:443", "http://localhost:5173"],
      feePercentage: "1.5",
      feeAddress,
      defaultPreApprovalExpiry: 3600,
    });
    expect(withFee).toMatchObject({
      allowedDomains: [shop, "http://localhost:5173"],
      feePercentage: "1.5",
      feeAddress,
      defaultPreApprovalExpiry: 3600,
      defaultAuthorizationExpiry: null,
    });
    const nulls = await create({
      label: "Nulls",
      allowedDomains: [shop],
      feePercentage: null,
      feeAddress: null,
    });
    expect(nulls).toMatchObject({ feePercentage: null, feeAddress: null });
  });

  it("names a fee without its address, an http origin, a path, and too many origins", async () => {
    const noAddress = await server.call("POST", "/v2/client-ids", {
      body: { label: "x", allowedDomains: [shop], feePercentage: "2" },
    });
    expect(problemErrors(noAddress, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/feeAddress", message: "is required together with feePercentage" },
    ]);
    const badOrigins = await server.call("POST", "/v2/client-ids", {
      body: { label: "x", allowedDomains: ["http://shop.example.com", "https://shop.example.com/checkout"] },
    });
    expect([
      ...new Set(problemErrors(badOrigins, "/problems/validation-failed", 400).map((error) => error.path)),
    ]).toEqual(["/body/allowedDomains/0", "/body/allowedDomains/1"]);
    const tooMany = await server.call("POST", "/v2/client-ids", {
      body: { label: "x", allowedDomains: Array.from({ length: 11 }, (_, i) => `https://s${i}.example.com`) },
    });
    expect(problemErrors(tooMany, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/allowedDomains",
    ]);
    const zeroFee = await server.call("POST", "/v2/client-ids", {
      body: {
        label: "x",
        allowedDomains: [shop],
        feePercentage: "1",
        feeAddress: "0x0000000000000000000000000000000000000000",
      },
    });
    expect(problemErrors(zeroFee, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/feeAddress",
    ]);
  });

  it("requires the API key", async () => {
    const answer = await server.call("POST", "/v2/client-ids", {
      auth: "clientId",
      body: { label: "x", allowedDomains: [shop] },
    });
    problemErrors(answer, "/problems/unauthorized", 401);
  });
});

describe("listClientIds (GET /v2/client-ids)", () => {
  it("lists the caller's client IDs only, the configured one first, revoked ones included", async () => {
    const theirs = await create(
      { label: "Theirs", allowedDomains: ["https://theirs.example.com"] },
      asOtherAccount,
    );
    const mine = await create({ label: "Mine, revoked", allowedDomains: ["https://mine.example.com"] });
    await server.call("DELETE", `/v2/client-ids/${mine.id}`);
    const listed = await server.call("GET", "/v2/client-ids");
    expect(listed.status).toBe(200);
    expect(schemaErrors("ClientIdList", listed.body)).toBe("");
    const ids = listed.body.map((record: { id: string }) => record.id);
    expect(ids[0]).toBe(sampleCredentials.clientIdRecordId);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(listed.body.find((record: { id: string }) => record.id === mine.id).status).toBe("revoked");
    expect(
      (await server.call("GET", "/v2/client-ids", asOtherAccount)).body.map((r: { id: string }) => r.id),
    ).toEqual([theirs.id]);
  });
});

describe("updateClientId (PUT /v2/client-ids/{id})", () => {
  it("changes only what the body names, unsets with null, and stamps updatedAt", async () => {
    const created = await create({
      label: "Before",
      allowedDomains: [shop],
      feePercentage: "1.5",
      feeAddress,
      operatorWalletAddress: feeAddress,
    });
    server.clock.set("2026-04-13T08:30:00.000Z");
    try {
      const renamed = await server.call("PUT", `/v2/client-ids/${created.id}`, {
        body: { label: "After", allowedDomains: ["https://newshop.example.com"] },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({
        ...created,
        label: "After",
        allowedDomains: ["https://newshop.example.com"],
        updatedAt: "2026-04-13T08:30:00.000Z",
      });
      const unset = await server.call("PUT", `/v2/client-ids/${created.id}`, {
        body: { feePercentage: null, feeAddress: null, operatorWalletAddress: null },
      });
      expect(unset.body).toMatchObject({
        feePercentage: null,
        feeAddress: null,
        operatorWalletAddress: null,
      });
    } finally {
      server.clock.set(startInstant);
    }
  });

  it("refuses a fee left without its address, and any status change of a revoked client ID", async () => {
    const created = await create({ label: "Fee", allowedDomains: [shop], feePercentage: "1", feeAddress });
    const halfFee = await server.call("PUT", `/v2/client-ids/${created.id}`, { body: { feeAddress: null } });
    expect(problemErrors(halfFee, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/feeAddress", message: "is required together with feePercentage" },
    ]);
    const off = await server.call("PUT", `/v2/client-ids/${created.id}`, { body: { status: "inactive" } });
    expect(off.body.status).toBe("inactive");
    const on = await server.call("PUT", `/v2/client-ids/${created.id}`, { body: { status: "active" } });
    expect(on.body.status).toBe("active");
    const revoked = await server.call("PUT", `/v2/client-ids/${created.id}`, { body: { status: "revoked" } });
    expect(revoked.body.status).toBe("revoked");
    const back = await server.call("PUT", `/v2/client-ids/${created.id}`, { body: { status: "active" } });
    problemErrors(back, "/problems/invalid-state", 400);
    expect(back.body.detail).toBe(
      `Client ID ${created.id} is revoked; a revoked client ID cannot become active again. Create a new one.`,
    );
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.status).toBe("revoked");
  });

  it("answers 404 for another account's client ID and an unknown one, changing nothing", async () => {
    const theirs = await create({ label: "Theirs", allowedDomains: [shop] }, asOtherAccount);
    const answer = await server.call("PUT", `/v2/client-ids/${theirs.id}`, { body: { status: "revoked" } });
    problemErrors(answer, "/problems/not-found", 404);
    problemErrors(
      await server.call("PUT", "/v2/client-ids/cid_nope", { body: { label: "x" } }),
      "/problems/not-found",
      404,
    );
    expect((await server.call("GET", `/v2/client-ids/${theirs.id}`, asOtherAccount)).body.status).toBe(
      "active",
    );
  });
});

describe("deleteClientId (DELETE /v2/client-ids/{id})", () => {
  it("revokes at once: 200 without a body, the next call is 401, and a second delete is 200 again", async () => {
    const created = await create({ label: "To revoke", allowedDomains: [shop] });
    expect((await browserCall(created.clientId, shop)).status).toBe(200);
    const deleted = await server.call("DELETE", `/v2/client-ids/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe("");
    const refused = await browserCall(created.clientId, shop);
    problemErrors(refused, "/problems/unauthorized", 401);
    expect(refused.body.detail).toBe("The client ID in x-client-id is revoked.");
    expect(refused.text).not.toContain(created.clientId);
    expect((await server.call("DELETE", `/v2/client-ids/${created.id}`)).status).toBe(200);
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.status).toBe("revoked");
  });

  it("answers 404 for another account's client ID, which keeps working", async () => {
    const theirs = await create(
      { label: "Theirs", allowedDomains: ["https://theirs.example.com"] },
      asOtherAccount,
    );
    problemErrors(await server.call("DELETE", `/v2/client-ids/${theirs.id}`), "/problems/not-found", 404);
    expect((await browserCall(theirs.clientId, "https://theirs.example.com")).status).toBe(200);
  });
});

describe("configured client IDs after a restart on the same store", () => {
  it("stay revoked once deleteClientId revoked them (revocation is final)", async () => {
    const store = createMemoryStore();
    const clock = createFixedClock(startInstant);
    const first = await createServer({ store, clock }).listen({ port: 0 });
    const revoke = await fetch(`${first.url}/v2/client-ids/${sampleCredentials.clientIdRecordId}`, {
      method: "DELETE",
      headers: { "x-api-key": sampleCredentials.apiKey },
    });
    expect(revoke.status).toBe(200);
    await first.close();
    const second = await createServer({ store, clock }).listen({ port: 0 });
    try {
      expect((await store.clientIds.get(sampleCredentials.clientIdRecordId))?.status).toBe("revoked");
      const call = await fetch(`${second.url}/v2/currencies?network=base`, {
        headers: { "x-client-id": sampleCredentials.clientId, origin: "http://localhost:5173" },
      });
      expect(call.status).toBe(401);
    } finally {
      await second.close();
    }
  });
});

describe("authentication racing a revocation", () => {
  it("never undoes the revocation when it stamps lastUsedAt", async () => {
    const base = createMemoryStore();
    let revokeDuringLookup = false;
    // A revocation that commits right after the authentication read the client ID: the stamp
    // written afterwards must not bring the old, active record back.
    const revokeNow = () => {
      if (!revokeDuringLookup) return;
      revokeDuringLookup = false;
      void base.withTransaction(async (tx) => {
        const record = await tx.clientIds.get(sampleCredentials.clientIdRecordId);
        if (record) await tx.clientIds.put({ ...record, status: "revoked" });
      });
    };
    const revokingAfterLookups = (clientIds: Store["clientIds"]): Store["clientIds"] => ({
      ...clientIds,
      first: async (lookup, value) => {
        const found = await clientIds.first(lookup, value);
        revokeNow();
        return found;
      },
    });
    const racing: Store = {
      ...base,
      clientIds: revokingAfterLookups(base.clientIds),
      withTransaction: (work) =>
        base.withTransaction((tx) => work({ ...tx, clientIds: revokingAfterLookups(tx.clientIds) })),
    };
    const running = await createServer({
      store: racing,
      clock: createFixedClock(startInstant),
    }).listen({
      port: 0,
    });
    try {
      const browserCall = () =>
        fetch(`${running.url}/v2/currencies?network=base`, {
          headers: { "x-client-id": sampleCredentials.clientId, origin: "http://localhost:5173" },
        });
      revokeDuringLookup = true;
      expect((await browserCall()).status).toBe(200);
      await base.withTransaction(async () => {});
      expect((await base.clientIds.get(sampleCredentials.clientIdRecordId))?.status).toBe("revoked");
      expect((await browserCall()).status).toBe(401);
    } finally {
      await running.close();
    }
  });
});
