import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, configWithAccountWallets } from "../../fixtures.ts";
import {
  feeAddress,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";
import { fauSepolia, registerPayeeDestination } from "../../payee-destination-support.ts";
import { otherWalletKey, signInWithWallet, walletKey, withSession } from "../auth/sign-in.ts";

const shop = "https://shop.example.com";

let server: TestServer;
/** A session of the sandbox account (its wallet is configured for it), and one of `acct_other`. */
let asSandbox: ReturnType<typeof withSession>;
let asOther: ReturnType<typeof withSession>;
beforeAll(async () => {
  const config = configWithAccountWallets(
    privateKeyToAccount(walletKey).address,
    privateKeyToAccount(otherWalletKey).address,
  );
  server = await startTestServer({ config });
  asSandbox = withSession((await signInWithWallet(server, walletKey)).cookie);
  asOther = withSession((await signInWithWallet(server, otherWalletKey)).cookie);
});
afterAll(() => server.close());

async function createV1(body: Record<string, unknown>) {
  const answer = await server.call("POST", "/v1/client-ids", { ...asSandbox, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe("createClientIdV1 (POST /v1/client-ids)", () => {
  it("creates an active client ID of the session's account, the record /v2/client-ids reads with the API key", async () => {
    const created = await createV1({ label: "Auth API widget", allowedDomains: [shop, `${shop}/`] });
    expect(schemaErrors("ClientId", created)).toBe("");
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      clientId: expect.stringMatching(/^cli_[0-9a-f]{32}$/),
      label: "Auth API widget",
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
    const throughV2 = await server.call("GET", `/v2/client-ids/${created.id}`);
    expect(throughV2.status).toBe(200);
    expect(throughV2.body).toEqual(created);
    // The new client ID is a working credential of the sandbox account.
    const used = await server.call("GET", "/v2/currencies/USD/conversion-routes?network=base", {
      auth: "none",
      headers: { "x-client-id": created.clientId, origin: shop },
    });
    expect(used.status).toBe(200);
  });

  it("binds the client ID to an active payee destination of the account, in its canonical spelling", async () => {
    const destination = await registerPayeeDestination(server, privateKeyToAccount(generatePrivateKey()));
    const created = await createV1({
      label: "Bound",
      allowedDomains: [shop],
      payeeDestinationId: destination.id,
    });
    expect(created.payeeDestinationId).toBe(destination.destinationId);
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.payeeDestinationId).toBe(
      destination.destinationId,
    );
  });

  it("binds the secure payments of the client ID to its destination: amount alone pays it, another is refused", async () => {
    const destination = await registerPayeeDestination(server, privateKeyToAccount(generatePrivateKey()));
    const other = await registerPayeeDestination(server, privateKeyToAccount(generatePrivateKey()));
    const created = await createV1({
      label: "Bound",
      allowedDomains: [shop],
      payeeDestinationId: destination.id,
    });
    const asBound = { auth: "none" as const, headers: { "x-client-id": created.clientId, origin: shop } };
    const link = await server.call("POST", "/v2/secure-payments", {
      ...asBound,
      body: { requests: [{ amount: "12.5" }] },
    });
    expect(link.status, link.text).toBe(201);
    const [requestId] = link.body.requestIds;
    const request = await server.call("GET", `/sandbox/requests/${requestId}`);
    expect(request.body).toMatchObject({ payee: destination.walletAddress, paymentCurrency: "FAU-sepolia" });
    const refused = await server.call("POST", "/v2/secure-payments", {
      ...asBound,
      body: {
        requests: [
          { destinationId: other.destinationId, amount: "1" },
          { amount: "1", payee: other.walletAddress, invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
        ],
      },
    });
    const rule = `the client ID is bound to the payee destination ${destination.destinationId}, the only one its payments may go to`;
    expect(problemErrors(refused, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/destinationId", message: `names another destination: ${rule}` },
      { path: "/body/requests/1/payee", message: `cannot be sent: ${rule}; leave it out` },
    ]);
  });

  it("refuses a payee destination the account has no active one of, naming it, and stores nothing", async () => {
    const before = (await server.call("GET", "/v1/client-ids", asSandbox)).body.length;
    const unknown = `sepolia:${privateKeyToAccount(generatePrivateKey()).address}:${fauSepolia.tokenAddress}`;
    const answer = await server.call("POST", "/v1/client-ids", {
      ...asSandbox,
      body: { label: "Bound", allowedDomains: [shop], payeeDestinationId: unknown },
    });
    expect(answer.status).toBe(400);
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/payeeDestinationId",
        message: `is not an active payee destination of this account, got "${unknown}"`,
      },
    ]);
    expect((await server.call("GET", "/v1/client-ids", asSandbox)).body).toHaveLength(before);
  });

  it("refuses a fee without its address, naming the missing member", async () => {
    const answer = await server.call("POST", "/v1/client-ids", {
      ...asSandbox,
      body: { label: "Fee", allowedDomains: [shop], feePercentage: "1.5" },
    });
    expect(answer.status).toBe(400);
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/feeAddress",
    ]);
  });

  it("refuses a call without a session, or with an API key only (401)", async () => {
    const body = { label: "No session", allowedDomains: [shop] };
    expect((await server.call("POST", "/v1/client-ids", { auth: "none", body })).status).toBe(401);
    expect((await server.call("POST", "/v1/client-ids", { body })).status).toBe(401);
  });
});

describe("listClientIdsV1 (GET /v1/client-ids)", () => {
  it("lists the session account's client IDs as GET /v2/client-ids does, and no other account's", async () => {
    await createV1({ label: "Listed", allowedDomains: [shop] });
    const throughV1 = await server.call("GET", "/v1/client-ids", asSandbox);
    expect(throughV1.status).toBe(200);
    expect(throughV1.body).toEqual((await server.call("GET", "/v2/client-ids")).body);
    expect(throughV1.body.map((record: { label: string }) => record.label)).toContain("Listed");
    const other = await server.call("GET", "/v1/client-ids", asOther);
    expect(other.body).toEqual((await server.call("GET", "/v2/client-ids", asOtherAccount)).body);
    expect(other.body.map((record: { label: string }) => record.label)).not.toContain("Listed");
  });
});

describe("getClientIdV1 (GET /v1/client-ids/{id})", () => {
  it("reads a client ID created with the API key, and answers another account's as unknown", async () => {
    const created = await server.call("POST", "/v2/client-ids", {
      body: { label: "Made with the key", allowedDomains: [shop] },
    });
    const read = await server.call("GET", `/v1/client-ids/${created.body.id}`, asSandbox);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const foreign = await server.call("GET", `/v1/client-ids/${created.body.id}`, asOther);
    const unknown = await server.call("GET", "/v1/client-ids/01KM9S7C2V4X8R6T3N5B1D0HQZ", asOther);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`No client ID of your account has the id ${created.body.id}.`);
    expect(unknown.body.detail).toBe("No client ID of your account has the id 01KM9S7C2V4X8R6T3N5B1D0HQZ.");
  });
});

describe("updateClientIdV1 (PUT /v1/client-ids/{id})", () => {
  it("changes a client ID that /v2 then reads changed, binds and unbinds its destination", async () => {
    const created = await createV1({ label: "Before", allowedDomains: [shop] });
    const destination = await registerPayeeDestination(server, privateKeyToAccount(generatePrivateKey()));
    const changed = await server.call("PUT", `/v1/client-ids/${created.id}`, {
      ...asSandbox,
      body: {
        label: "After",
        feePercentage: "2.5",
        feeAddress,
        payeeDestinationId: destination.destinationId,
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({
      ...created,
      label: "After",
      feePercentage: "2.5",
      feeAddress,
      payeeDestinationId: destination.destinationId,
    });
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body).toEqual(changed.body);
    const unbound = await server.call("PUT", `/v1/client-ids/${created.id}`, {
      ...asSandbox,
      body: { payeeDestinationId: null },
    });
    expect(unbound.body.payeeDestinationId).toBeNull();
    expect(unbound.body.label).toBe("After");
  });

  it("cannot bring back a client ID revoked through /v2 (400 invalid-state)", async () => {
    const created = await createV1({ label: "Revoked", allowedDomains: [shop] });
    expect((await server.call("DELETE", `/v2/client-ids/${created.id}`)).status).toBe(200);
    const answer = await server.call("PUT", `/v1/client-ids/${created.id}`, {
      ...asSandbox,
      body: { status: "active" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe("/problems/invalid-state");
  });

  it("answers another account's client ID as unknown, and changes nothing", async () => {
    const created = await createV1({ label: "Mine", allowedDomains: [shop] });
    const answer = await server.call("PUT", `/v1/client-ids/${created.id}`, {
      ...asOther,
      body: { label: "Taken" },
    });
    expect(answer.status).toBe(404);
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.label).toBe("Mine");
  });
});

describe("deleteClientIdV1 (DELETE /v1/client-ids/{id})", () => {
  it("revokes a client ID made with the API key: /v2 reads it revoked, and it no longer authenticates", async () => {
    const created = await server.call("POST", "/v2/client-ids", {
      body: { label: "To revoke", allowedDomains: [shop] },
    });
    const revoked = await server.call("DELETE", `/v1/client-ids/${created.body.id}`, asSandbox);
    expect(revoked.status).toBe(200);
    expect(revoked.text).toBe("");
    expect((await server.call("GET", `/v2/client-ids/${created.body.id}`)).body.status).toBe("revoked");
    const used = await server.call("GET", "/v2/currencies/USD/conversion-routes?network=base", {
      auth: "none",
      headers: { "x-client-id": created.body.clientId, origin: shop },
    });
    expect(used.status).toBe(401);
    expect((await server.call("DELETE", `/v1/client-ids/${created.body.id}`, asSandbox)).status).toBe(200);
  });

  it("answers another account's client ID as unknown, and leaves it active", async () => {
    const created = await createV1({ label: "Kept", allowedDomains: [shop] });
    expect((await server.call("DELETE", `/v1/client-ids/${created.id}`, asOther)).status).toBe(404);
    expect((await server.call("GET", `/v2/client-ids/${created.id}`)).body.status).toBe("active");
  });
});
