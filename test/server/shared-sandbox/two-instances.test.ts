import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createDefaultConfig,
  createPostgresStore,
  type SandboxConfig,
  type Store,
} from "../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres, type TestPostgres } from "../../support/postgres.ts";
import { createSecurePayment, payee, payer, startTestServer, type TestServer } from "../helpers.ts";
import { fastDelivery, localReceivers } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { allDeliveriesFinished } from "./outbox-drained.ts";

let postgres: TestPostgres | undefined;
const stores: Store[] = [];
const servers: TestServer[] = [];
const receivers: Receiver[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** Two server instances on one new database, each with its own connections and webhook worker. */
async function startTwoInstances(config: SandboxConfig): Promise<[TestServer, TestServer, Store]> {
  if (!postgres) postgres = await sharedPostgres();
  const url = await postgres.createDatabase();
  const started: TestServer[] = [];
  for (let n = 0; n < 2; n++) {
    const store = await createPostgresStore({ connectionString: url });
    stores.push(store);
    const server = await startTestServer({ config, store });
    servers.push(server);
    started.push(server);
  }
  return [started[0] as TestServer, started[1] as TestServer, stores.at(-1) as Store];
}

const eventsOf = (receiver: Receiver) =>
  receiver.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")) as Record<string, string>);

describeWithPostgres("two server instances on one PostgreSQL database", () => {
  beforeAll(async () => {
    receivers.push(await startReceiver(), await startReceiver());
  });

  it("creates, reads and pays 200 links across both, and every webhook arrives once per endpoint", async () => {
    const [orders, audit] = receivers as [Receiver, Receiver];
    const config: SandboxConfig = {
      ...createDefaultConfig(),
      ...fastDelivery,
      ...localReceivers,
      webhookPollIntervalMs: 100,
    };
    (config.accounts[0] as SandboxConfig["accounts"][number]).webhookEndpoints = [
      { url: orders.url, events: ["payment.confirmed"] },
      { url: audit.url, events: ["payment.confirmed"] },
    ];
    const [first, second, store] = await startTwoInstances(config);
    expect(store.shared).toBe(true);
    const links: { token: string; requestId: string; creator: TestServer; other: TestServer }[] = [];
    // Ten at a time, so that the instances' transactions overlap.
    for (let batch = 0; batch < 20; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          const [creator, other] = index % 2 === 0 ? [first, second] : [second, first];
          const { token, requestIds } = await createSecurePayment(creator);
          return { token, requestId: requestIds[0] as string, creator, other };
        }),
      );
      links.push(...created);
    }
    expect(new Set(links.map((link) => link.token)).size).toBe(200);

    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(
        links.slice(batch * 10, batch * 10 + 10).map(async ({ token, requestId, creator, other }) => {
          expect((await other.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
          const paid = await other.call("POST", `/sandbox/requests/${requestId}/payments`, {
            body: { outcome: "paid" },
          });
          expect(paid.status).toBe(201);
          expect((await creator.call("GET", `/v2/secure-payments/${token}`)).status).toBe(409);
        }),
      );
    }

    await allDeliveriesFinished(store);
    const requestIds = links.map((link) => link.requestId).sort();
    for (const receiver of [orders, audit]) {
      const events = eventsOf(receiver);
      expect(events.every((event) => event.event === "payment.confirmed")).toBe(true);
      expect(events.map((event) => event.requestId).sort()).toEqual(requestIds);
      expect(receiver.processed).toHaveLength(200);
      expect(new Set(receiver.processed).size).toBe(200);
    }
    const deliveries = await store.webhookDeliveries.find("all", {}, undefined, { state: "delivered" });
    expect(deliveries.items).toHaveLength(400);
    expect(deliveries.items.every((delivery) => delivery.attempts.length === 1)).toBe(true);
    expect([...first.loggedErrors, ...second.loggedErrors]).toEqual([]);
  });

  it("pays a request once, completes its link once and cancels a recurring payment once, however the calls race", async () => {
    const [first, second, store] = await startTwoInstances(createDefaultConfig());
    const heard: string[] = [];
    store.onEventsCommitted((events) => heard.push(...events.map((event) => event.type)));

    const { token, requestIds } = await createSecurePayment(first);
    const pay = (server: TestServer) =>
      server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, { body: { outcome: "paid" } });
    const payments = await Promise.all([pay(first), pay(second), pay(first), pay(second)]);
    expect(payments.map((answer) => answer.status).sort()).toEqual([201, 400, 400, 400]);
    const request = (await second.call("GET", `/sandbox/requests/${requestIds[0]}`)).body;
    expect(request).toMatchObject({
      status: "paid",
      amountPaid: "125",
      securePayment: { status: "completed" },
    });
    expect(request.payments).toHaveLength(1);
    const events = await store.listEvents();
    expect(events.filter((event) => event.type === "payment.confirmed")).toHaveLength(1);
    expect(
      events.filter((event) => event.type === "secure_payment.status_changed" && event.data.token === token),
    ).toHaveLength(1);

    const created = await first.call("POST", "/sandbox/recurring-payments", {
      body: {
        status: "active",
        payer,
        payee,
        currency: "USDC-base",
        amount: "50",
        totalPayments: 8,
        processedPayments: 3,
        spender: "0xdC8781FFAb20FeF4ab0472C3D6E50073b540Ed9e",
      },
    });
    const cancel = (server: TestServer) =>
      server.call("PATCH", `/v2/payouts/recurring/${created.body.id}`, { body: { action: "cancel" } });
    const cancels = await Promise.all([cancel(first), cancel(second), cancel(second), cancel(first)]);
    expect(cancels.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
    const cancelled = (await store.listEvents()).filter(
      (event) => event.type === "recurring_payment.status_changed" && event.data.id === created.body.id,
    );
    expect(cancelled.map((event) => event.data.to)).toEqual(["cancelled"]);
  });
});
