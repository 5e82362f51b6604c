import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig, createMemoryStore, type SandboxConfig } from "../../../../src/server/index.ts";
import { createSecurePayment, payer, startTestServer, type TestServer } from "../../helpers.ts";

const otherKey = "sk_account_b_0000000000001";
const asB = { headers: { "x-api-key": otherKey } };

function twoAccounts(): SandboxConfig {
  const config = createDefaultConfig();
  config.accounts.push({
    id: "acct_b",
    apiKeys: [otherKey],
    webhookSecret: "whsec_account_b_0001",
    clientIds: [],
  });
  return config;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: twoAccounts() });
});
afterAll(() => server.close());

describe("getSandboxClock and setSandboxClock: one clock per account", () => {
  it("moves only the caller's clock: account B's move leaves account A's links payable", async () => {
    const { token } = await createSecurePayment(server);
    const moved = await server.call("POST", "/sandbox/clock", {
      ...asB,
      body: { advanceSeconds: 8 * 24 * 3600 },
    });
    expect(moved.body).toEqual({ now: "2026-04-20T10:00:00.000Z", offsetSeconds: 691200 });
    expect((await server.call("GET", "/sandbox/clock", asB)).body.offsetSeconds).toBe(691200);
    expect((await server.call("GET", "/sandbox/clock")).body).toEqual({
      now: "2026-04-12T10:00:00.000Z",
      offsetSeconds: 0,
    });
    expect((await server.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);

    // Account B's own link lives by account B's clock.
    const created = await server.call("POST", "/v2/secure-payments", {
      ...asB,
      body: {
        requests: [{ payee: payer, amount: "5", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
      },
    });
    expect(created.status).toBe(201);
    const { requestIds } = created.body;
    const request = (await server.call("GET", `/sandbox/requests/${requestIds[0]}`, asB)).body;
    expect(request.createdAt).toBe("2026-04-20T10:00:00.000Z");
    expect(request.securePayment.expiresAt).toBe("2026-04-27T10:00:00.000Z");
  });

  it("keeps each account's clock in the store: a new server on it reads the same clocks", async () => {
    const store = createMemoryStore();
    const first = await startTestServer({ config: twoAccounts(), store });
    await first.call("POST", "/sandbox/clock", { ...asB, body: { now: "2027-01-01T00:00:00Z" } });
    await first.close();
    const second = await startTestServer({ config: twoAccounts(), store });
    try {
      expect((await second.call("GET", "/sandbox/clock", asB)).body.now).toBe("2027-01-01T00:00:00.000Z");
      expect((await second.call("GET", "/sandbox/clock")).body.now).toBe("2026-04-12T10:00:00.000Z");
    } finally {
      await second.close();
    }
  });
});

describe("setSandboxWallet and getSandboxWallet: one wallet book per account", () => {
  it("sets account B's balances without touching account A's, and pay calldata reads the caller's book", async () => {
    const wallet = "0x1111111111111111111111111111111111111111";
    await server.call("POST", "/sandbox/wallets", {
      body: { address: wallet, balances: [{ currency: "USDC-base", amount: "500" }] },
    });
    await server.call("POST", "/sandbox/wallets", {
      ...asB,
      body: { address: wallet, balances: [{ currency: "USDC-base", amount: "1" }] },
    });
    const a = await server.call("GET", `/sandbox/wallets/${wallet}`);
    const b = await server.call("GET", `/sandbox/wallets/${wallet}`, asB);
    expect(a.body.balances).toEqual([{ currency: "USDC-base", amount: "500" }]);
    expect(b.body.balances).toEqual([{ currency: "USDC-base", amount: "1" }]);

    const { requestIds } = await createSecurePayment(server);
    const pay = await server.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${wallet}`);
    expect(pay.body.metadata.hasEnoughBalance).toBe(true);
    const fresh = "0x2222222222222222222222222222222222222222";
    await server.call("POST", "/sandbox/wallets", {
      ...asB,
      body: { address: fresh, balances: [{ currency: "USDC-base", amount: "900" }] },
    });
    expect((await server.call("GET", `/sandbox/wallets/${fresh}`)).status).toBe(404);
    const notFunded = await server.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${fresh}`);
    expect(notFunded.body.metadata.hasEnoughBalance).toBe(false);
  });
});
