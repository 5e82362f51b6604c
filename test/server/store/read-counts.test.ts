import { afterEach, describe, expect, it } from "vitest";
import { createDefaultConfig, createMemoryStore, type SandboxConfig } from "../../../src/server/index.ts";
import { createSecurePayment, payee, payer, startTestServer, type TestServer } from "../helpers.ts";
import { fastDelivery, localReceivers } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { request } from "./fixtures.ts";

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A server on a memory store that counts every record its reads look at. */
async function countingServer(): Promise<{ server: TestServer; reads: () => number }> {
  let reads = 0;
  const store = createMemoryStore({ onRead: (_table, records) => (reads += records) });
  const hook = await startReceiver();
  receivers.push(hook);
  const config: SandboxConfig = { ...createDefaultConfig(), ...fastDelivery, ...localReceivers };
  (config.accounts[0] as SandboxConfig["accounts"][number]).webhookEndpoints = [{ url: hook.url }];
  const server = await startTestServer({ config, store });
  servers.push(server);
  return { server, reads: () => reads };
}

/** `links` paid links: requests, links, events and one delivery each. */
async function fill(server: TestServer, links: number): Promise<void> {
  for (let n = 0; n < links; n++) {
    const { requestIds } = await createSecurePayment(server);
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, { body: { outcome: "paid" } });
  }
  await server.server.webhooks.settled();
}

/** Runs one of each operation and answers how many records each read, by operation. */
async function readsPerOperation(server: TestServer, reads: () => number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const measure = async (name: string, work: () => Promise<{ status: number } | unknown>) => {
    const before = reads();
    const answer = await work();
    const status = (answer as { status?: number } | undefined)?.status ?? 200;
    if (status >= 300) throw new Error(`${name} answered ${status}: ${JSON.stringify(answer)}`);
    await server.server.webhooks.settled();
    counts[name] = reads() - before;
  };
  const wallet = "0x3333333333333333333333333333333333333333";
  let link = { token: "", requestIds: [] as string[] };
  await measure("createSecurePayment", async () => {
    link = await createSecurePayment(server);
  });
  const requestId = link.requestIds[0] as string;
  await measure("checkSecurePaymentToken", () => server.call("GET", `/v2/secure-payments/${link.token}`));
  await measure("setSandboxWallet", () =>
    server.call("POST", "/sandbox/wallets", {
      body: { address: wallet, balances: [{ currency: "USDC-base", amount: "9" }] },
    }),
  );
  await measure("getSandboxWallet", () => server.call("GET", `/sandbox/wallets/${wallet}`));
  await measure("getPayCalldata", () => server.call("GET", `/v2/request/${requestId}/pay?wallet=${wallet}`));
  await measure("createBatchPayout", () =>
    server.call("POST", "/v2/payouts/batch", { body: { requestIds: [requestId], payer } }),
  );
  await measure("recordSandboxPayment with its webhook", () =>
    server.call("POST", `/sandbox/requests/${requestId}/payments`, { body: { outcome: "paid" } }),
  );
  let paymentReference = "";
  await measure("getSandboxRequest", async () => {
    const read = await server.call("GET", `/sandbox/requests/${requestId}`);
    paymentReference = read.body.paymentReference;
    return read;
  });
  await measure("getRequestStatus", () => server.call("GET", `/v2/request/${requestId}`));
  await measure("searchPayments by requestId", () =>
    server.call("GET", `/v2/payments?requestId=${requestId}`),
  );
  await measure("searchPayments by paymentReference", () =>
    server.call("GET", `/v2/payments?paymentReference=${paymentReference}`),
  );
  await measure("listClientIds", () => server.call("GET", "/v2/client-ids"));
  await measure("listSandboxWebhookDeliveries", () =>
    server.call("GET", "/sandbox/webhooks/deliveries?limit=5"),
  );
  await measure("listSandboxWebhookDeliveries by request", () =>
    server.call("GET", `/sandbox/webhooks/deliveries?requestId=${requestId}`),
  );
  await measure("listSandboxWebhookEndpoints", () => server.call("GET", "/sandbox/webhooks/endpoints"));
  await measure("registerPayer", () =>
    server.call("POST", "/v2/payer", {
      body: {
        clientUserId: "ada",
        email: "ada@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        beneficiaryType: "individual",
        dateOfBirth: "1990-01-01",
        addressLine1: "1 Main St",
        city: "London",
        state: "London",
        postcode: "N1 1AA",
        country: "GB",
        nationality: "GB",
        phone: "+442079460000",
        ssn: "000000000",
      },
    }),
  );
  await measure("setSandboxClock", () =>
    server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 60 } }),
  );
  await measure("getSandboxClock", () => server.call("GET", "/sandbox/clock"));
  let recurringId = "";
  await measure("createSandboxRecurringPayment", async () => {
    const created = await server.call("POST", "/sandbox/recurring-payments", {
      body: {
        status: "active",
        payer,
        payee,
        currency: "USDC-base",
        amount: "5",
        totalPayments: 3,
        spender: "0xdC8781FFAb20FeF4ab0472C3D6E50073b540Ed9e",
      },
    });
    recurringId = created.body.id;
  });
  await measure("executeSandboxRecurringPayment", () =>
    server.call("POST", `/sandbox/recurring-payments/${recurringId}/executions`, {
      body: { outcome: "success" },
    }),
  );
  await measure("getRecurringPaymentStatus", () =>
    server.call("GET", `/v2/payouts/recurring/${recurringId}`),
  );
  await measure("updateRecurringPayment", () =>
    server.call("PATCH", `/v2/payouts/recurring/${recurringId}`, { body: { action: "cancel" } }),
  );
  return counts;
}

describe("the in-memory store at scale", () => {
  it("reads as many records for each operation among 400 paid links as among 12: no operation walks the log", async () => {
    const small = await countingServer();
    await fill(small.server, 12);
    const large = await countingServer();
    await fill(large.server, 400);
    const fewRecords = await readsPerOperation(small.server, small.reads);
    const manyRecords = await readsPerOperation(large.server, large.reads);
    expect(manyRecords).toEqual(fewRecords);
    // The paths that read records do read them: these counts are what an operation costs. The
    // payment's webhook fan-out also reads the two events of the link created before, which
    // concern no webhook and waited for it; the creation itself read nothing. The link's request
    // sends two webhooks, payment.confirmed and its payment.confirmed.checkout duplicate, fanned
    // out with one read of the account's endpoints.
    expect(fewRecords).toMatchObject({
      createSecurePayment: 0,
      getPayCalldata: 2,
      "recordSandboxPayment with its webhook": 19,
    });
    expect(large.server.loggedErrors).toEqual([]);
  });
});

/** How many records each method of a table reads, with `others` requests of another account beside three of one. */
async function readsPerTableMethod(others: number): Promise<Record<string, number>> {
  let reads = 0;
  const store = createMemoryStore({ onRead: (_table, records) => (reads += records) });
  const id = (n: number) => `01${n.toString(16).padStart(64, "0")}`;
  for (let n = 1; n <= others; n++) {
    await store.requests.put({ ...request(id(1000 + n), "other"), recurringPaymentId: "rp_1" });
  }
  for (let n = 1; n <= 3; n++) await store.requests.put({ ...request(id(n)), recurringPaymentId: "rp_1" });
  const counts: Record<string, number> = {};
  const measure = async (name: string, work: () => Promise<unknown>) => {
    const before = reads;
    await work();
    counts[name] = reads - before;
  };
  await measure("get", () => store.requests.get(id(2)));
  await measure("first", () => store.requests.first("paymentReference", `0x${id(2).slice(-16)}`));
  await measure("find", () => store.requests.find("account", "acct"));
  await measure("find a page", () => store.requests.find("account", "acct", { limit: 1 }));
  await measure("find a page with a filter", () =>
    store.requests.find("recurringPayment", "rp_1", { limit: 1, after: others }, { accountId: "acct" }),
  );
  await measure("put", () => store.requests.put(request(id(2))));
  await measure("delete", () => store.requests.delete(id(3)));
  return counts;
}

describe("the in-memory store's tables", () => {
  it("read as many records for each method among 2,000 records as among 20: only what they answer", async () => {
    const fewRecords = await readsPerTableMethod(20);
    expect(await readsPerTableMethod(2000)).toEqual(fewRecords);
    expect(fewRecords).toEqual({
      get: 1,
      first: 1,
      find: 3,
      "find a page": 2,
      "find a page with a filter": 2,
      put: 0,
      delete: 0,
    });
  });
});
