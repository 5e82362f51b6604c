import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  createDefaultConfig,
  createPostgresStore,
  type SandboxConfig,
  type Store,
  sampleCredentials,
  type WebhookDeliveryRecord,
} from "../../../src/server/index.ts";
import { type RunningPayreq, startPayreq } from "../../cli/payreq-process.ts";
import { describeWithPostgres, sharedPostgres, type TestPostgres } from "../../support/postgres.ts";
import { startTestServer, type TestServer, usdcOnBase } from "../helpers.ts";
import { localReceivers } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

let postgres: TestPostgres | undefined;
let directory: string;
const processes: RunningPayreq[] = [];
const stores: Store[] = [];
const servers: TestServer[] = [];
let hook: Receiver | undefined;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), "payreq-restart-"));
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((running) => running.kill()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await hook?.close();
  hook = undefined;
});
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
});

/** A new database, and a configuration (and its file) that sends every event to `receiver`. */
async function prepare(
  receiver: Receiver,
  settings: Partial<SandboxConfig>,
): Promise<[string, string, Store, SandboxConfig]> {
  if (!postgres) postgres = await sharedPostgres();
  const url = await postgres.createDatabase();
  const config: SandboxConfig = {
    ...createDefaultConfig(),
    ...localReceivers,
    webhookPollIntervalMs: 100,
    ...settings,
  };
  (config.accounts[0] as SandboxConfig["accounts"][number]).webhookEndpoints = [
    // The core event only: a link's payment also sends payment.confirmed.checkout.
    { url: receiver.url, events: ["payment.confirmed"] },
  ];
  const file = path.join(directory, `sandbox-${stores.length}.json`);
  writeFileSync(file, JSON.stringify(config));
  const store = await createPostgresStore({ connectionString: url });
  stores.push(store);
  return [url, file, store, config];
}

/** `payreq serve` on the database, as its own process; resolves with its API origin once it listens. */
async function serve(url: string, file: string): Promise<{ origin: string; running: RunningPayreq }> {
  const running = await startPayreq(
    ["serve", "--port", "0", "--config", file, "--database", url],
    /API:\s+(http:\/\/\S+)/,
  );
  processes.push(running);
  const [, origin] = (await running.waitFor(/API:\s+(http:\/\/\S+)/)) as RegExpMatchArray;
  return { origin: origin as string, running };
}

async function call(origin: string, method: string, route: string, body?: unknown) {
  const answer = await fetch(`${origin}${route}`, {
    method,
    headers: { "x-api-key": sampleCredentials.apiKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the answers freely
  return { status: answer.status, body: (await answer.json()) as any };
}

/** Creates a link and pays its request through the server; answers the request id. */
async function payOneLink(origin: string): Promise<string> {
  const link = await call(origin, "POST", "/v2/secure-payments", { requests: [usdcOnBase()] });
  expect(link.status).toBe(201);
  const requestId = link.body.requestIds[0] as string;
  expect(
    (await call(origin, "POST", `/sandbox/requests/${requestId}/payments`, { outcome: "paid" })).status,
  ).toBe(201);
  return requestId;
}

async function theDelivery(store: Store, requestId: string): Promise<WebhookDeliveryRecord> {
  const [delivery] = (await store.webhookDeliveries.find("request", requestId)).items;
  if (!delivery) throw new Error(`no delivery for ${requestId}`);
  return delivery;
}

/** Reads the request's delivery until `done` holds (a wait, not a timing assertion: it gives up after 30 s). */
async function deliveryOnce(
  store: Store,
  requestId: string,
  done: (delivery: WebhookDeliveryRecord) => boolean,
): Promise<WebhookDeliveryRecord> {
  for (let round = 0; round < 300; round++) {
    const [delivery] = (await store.webhookDeliveries.find("request", requestId)).items;
    if (delivery && done(delivery)) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the delivery for ${requestId} never reached the awaited state`);
}

const deliveryHeader = (receiver: Receiver, index: number) => receiver.received[index]?.headers;

/**
 * A delivery whose sender was killed mid-attempt came again, with the same delivery id and retry
 * count, and is delivered with that one attempt recorded; the receiver processed it once.
 */
async function expectSentAgainOnce(receiver: Receiver, store: Store, leased: WebhookDeliveryRecord) {
  await receiver.arrived(2);
  expect(deliveryHeader(receiver, 1)?.["x-request-network-delivery"]).toBe(leased.id);
  expect(deliveryHeader(receiver, 1)?.["x-request-network-retry-count"]).toBe("0");
  const delivered = await deliveryOnce(
    store,
    leased.requestId as string,
    (delivery) => delivery.state === "delivered",
  );
  expect(delivered.attempts.map((attempt) => [attempt.retryCount, attempt.statusCode])).toEqual([[0, 200]]);
  expect(delivered.lease).toBeNull();
  expect(receiver.processed).toEqual([leased.id]);
}

describeWithPostgres("restarts on a PostgreSQL database", () => {
  it("retries, after its lease ends, a delivery whose sender was killed mid-attempt, and loses nothing", async () => {
    hook = await startReceiver({ hang: true });
    const [url, file, store] = await prepare(hook, { webhookTimeoutMs: 1000, webhookRetryDelaysMs: [100] });
    const first = await serve(url, file);
    const requestId = await payOneLink(first.origin);
    await hook.arrived(1);
    await first.running.kill();

    // Killed mid-attempt: everything the payment wrote is there, the attempt is leased and unrecorded.
    const request = await store.requests.get(requestId);
    expect(request).toMatchObject({ status: "paid", amountPaid: "125000000" });
    expect((await store.securePayments.get(request?.securePaymentToken as string))?.status).toBe("completed");
    const events = (await store.listEvents()).filter((event) => event.data.requestId === requestId);
    expect(events.map((event) => event.type).sort()).toEqual([
      "payment.confirmed",
      "payment.confirmed.checkout",
      "request.created",
      "request.payment_recorded",
    ]);
    const leased = await theDelivery(store, requestId);
    expect(leased).toMatchObject({ state: "pending", nextRetryCount: 0, attempts: [] });
    expect(leased.lease?.owner).toMatch(/^worker_/);

    hook.reply({ status: 200, body: "ok" });
    await serve(url, file);
    await expectSentAgainOnce(hook, store, leased);
  });

  it("has the other live instance send again, once the lease ends, a delivery whose sender was killed mid-attempt", async () => {
    hook = await startReceiver({ hang: true });
    const [url, file, store, config] = await prepare(hook, {
      webhookTimeoutMs: 1000,
      webhookRetryDelaysMs: [100],
    });
    const first = await serve(url, file);
    // The other instance serves the API from the start; its worker starts once the first one's
    // attempt is under way, so that the first one is the sender.
    const second = await startTestServer({
      config,
      store: await createPostgresStore({ connectionString: url }),
    });
    servers.push(second);
    stores.push(second.server.store);
    await second.server.webhooks.stop();
    const requestId = await payOneLink(first.origin);
    await hook.arrived(1);
    second.server.webhooks.start();
    await first.running.kill();
    const leased = await theDelivery(store, requestId);
    expect(leased).toMatchObject({ state: "pending", attempts: [] });

    hook.reply({ status: 200, body: "ok" });
    await expectSentAgainOnce(hook, store, leased);
    expect(second.loggedErrors).toEqual([]);
  });

  it("keeps the retry schedule across a kill: the retry comes once due, with the next retry count", async () => {
    hook = await startReceiver({ status: 500, body: "down" });
    const [url, file, store] = await prepare(hook, {
      webhookTimeoutMs: 1000,
      webhookRetryDelaysMs: [2000, 2000],
    });
    const first = await serve(url, file);
    const requestId = await payOneLink(first.origin);
    const waiting = await deliveryOnce(
      store,
      requestId,
      (delivery) => delivery.attempts.length === 1 && delivery.lease === null,
    );
    await first.running.kill();
    expect(waiting).toMatchObject({ state: "pending", nextRetryCount: 1 });
    const dueMs = Date.parse(waiting.dueAt as string);

    hook.reply({ status: 200, body: "ok" });
    await serve(url, file);
    await hook.arrived(2);
    expect(Date.now()).toBeGreaterThanOrEqual(dueMs);
    expect(deliveryHeader(hook, 1)?.["x-request-network-delivery"]).toBe(waiting.id);
    expect(deliveryHeader(hook, 1)?.["x-request-network-retry-count"]).toBe("1");
    const delivered = await deliveryOnce(store, requestId, (delivery) => delivery.state === "delivered");
    expect(delivered.attempts.map((attempt) => [attempt.retryCount, attempt.statusCode])).toEqual([
      [0, 500],
      [1, 200],
    ]);
  });
});
