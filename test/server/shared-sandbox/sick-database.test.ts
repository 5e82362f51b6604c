import { afterEach, expect, it } from "vitest";
import {
  createDefaultConfig,
  createPostgresStore,
  type SandboxConfig,
  type Store,
} from "../../../src/server/index.ts";
import { type FaultProxy, startFaultProxy } from "../../support/fault-proxy.ts";
import { describeWithPostgres, sharedPostgres } from "../../support/postgres.ts";
import {
  type Answer,
  createSecurePayment,
  problemErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../helpers.ts";
import { localReceivers } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

/**
 * A server on a new database that it reaches through a fault proxy, with short timeouts (the
 * defaults are seconds): the test makes its database stop or hang, and come back.
 */
async function startBehindProxy(settings: Partial<SandboxConfig> = {}): Promise<[TestServer, FaultProxy]> {
  const url = await (await sharedPostgres()).createMigratedDatabase();
  const { hostname, port } = new URL(url);
  const proxy = await startFaultProxy({ host: hostname, port: Number(port) });
  opened.push(proxy);
  const store: Store = await createPostgresStore({
    connectionString: proxy.through(url),
    timeouts: { connectTimeoutMs: 1000, statementTimeoutMs: 500, lockTimeoutMs: 200 },
  });
  opened.push(store);
  const server = await startTestServer({ config: { ...createDefaultConfig(), ...settings }, store });
  opened.push(server);
  return [server, proxy];
}

/** Asserts the documented answer of a database that is down or hangs: 503, the problem shape, Retry-After. */
function expectUnavailable(answer: Answer): void {
  problemErrors(answer, "/problems/service-unavailable", 503);
  expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  expect((answer.body as { detail: string }).detail).toMatch(/nothing was changed/);
}

/** An answer within this bound, however the database fails: today's server hung past 20 s on a paused one. */
const bounded = { timeoutMs: 15_000 };

/** Every answer the server logged as its own failure (500); the webhook worker's logs are not among them. */
const failedRequests = (server: TestServer) =>
  server.loggedErrors.filter((line) => line.startsWith("request "));

async function until(done: () => boolean, what: string): Promise<void> {
  for (let round = 0; round < 300; round++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describeWithPostgres("a sick PostgreSQL database", () => {
  it("answers 503 with Retry-After while it is stopped, serves what needs no stored state, and recovers without a restart", async () => {
    const hook: Receiver = await startReceiver({ hang: true });
    opened.push(hook);
    const [server, proxy] = await startBehindProxy({
      ...localReceivers,
      webhookTimeoutMs: 300,
      webhookRetryDelaysMs: [20],
      webhookPollIntervalMs: 100,
    });
    const created = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: hook.url, events: ["payment.confirmed"] },
    });
    expect(created.status).toBe(201);
    const { requestIds } = await createSecurePayment(server);
    const pay = (requestId: string) =>
      server.call("POST", `/sandbox/requests/${requestId}/payments`, {
        body: { outcome: "paid" },
        ...bounded,
      });
    expect((await pay(requestIds[0] as string)).status).toBe(201);
    // The webhook's first attempt is under way (the receiver holds it) when the database stops.
    await hook.arrived(1);
    const deliveryId = hook.received[0]?.headers["x-request-network-delivery"];
    proxy.set("refuse");
    hook.reply({ status: 200, body: "ok" });

    expectUnavailable(
      await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] }, ...bounded }),
    );
    expectUnavailable(await server.call("GET", `/v2/request/${requestIds[0]}`, bounded));
    expectUnavailable(await server.call("GET", "/sandbox/clock", bounded));
    // No stored state: the currency list, the conversion routes and the fee preview still answer.
    expect((await server.call("GET", "/v1/currencies?network=base", bounded)).status).toBe(200);
    expect(
      (await server.call("GET", "/v2/currencies/USD/conversion-routes?network=base", bounded)).status,
    ).toBe(200);
    const preview = await server.call("POST", "/v2/secure-payments/fees/preview", {
      body: { amount: "100", currency: "USDC-base", flow: "get_paid" },
      ...bounded,
    });
    expect(preview.status).toBe(200);
    // A client ID is checked against the database: the same list answers 503 then.
    expectUnavailable(
      await server.call("GET", "/v1/currencies?network=base", { auth: "clientId", ...bounded }),
    );
    // The worker's attempt ended while the database was stopped: it could not record it.
    await until(
      () => server.loggedErrors.some((line) => line.includes(`webhook delivery ${deliveryId} failed`)),
      "the worker to meet the stopped database",
    );

    proxy.set("forward");
    const again = await createSecurePayment(server);
    expect((await pay(again.requestIds[0] as string)).status).toBe(201);
    expect((await server.call("GET", "/sandbox/clock")).status).toBe(200);
    // The worker kept polling: once its lease ends, the delivery it could not record is sent again.
    await until(
      () =>
        hook.received.filter((webhook) => webhook.headers["x-request-network-delivery"] === deliveryId)
          .length >= 2,
      "the unrecorded delivery to be sent again",
    );
    await until(() => hook.processed.length >= 2, "the payment after the outage to be delivered");
    expect(failedRequests(server)).toEqual([]);
  });

  it("answers 503 after its timeouts while it hangs, instead of waiting for it, and recovers without a restart", async () => {
    const [server, proxy] = await startBehindProxy();
    const { requestIds } = await createSecurePayment(server);
    proxy.set("stall");

    // One call finds a connection of the pool that stopped answering, the next opens a new one that never does.
    expectUnavailable(await server.call("GET", `/v2/request/${requestIds[0]}`, bounded));
    expectUnavailable(
      await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] }, ...bounded }),
    );
    expectUnavailable(await server.call("GET", "/sandbox/clock", bounded));
    expect((await server.call("GET", "/v2/currencies?network=base", bounded)).status).toBe(200);

    proxy.set("forward");
    expect((await server.call("GET", `/v2/request/${requestIds[0]}`)).status).toBe(200);
    expect((await createSecurePayment(server)).requestIds).toHaveLength(1);
    expect(failedRequests(server)).toEqual([]);
  });
});
