import { afterEach, expect, it } from "vitest";
import {
  createDefaultConfig,
  createPostgresStore,
  type SandboxConfig,
  type Store,
} from "../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres } from "../../support/postgres.ts";
import { createSlowStore } from "../../support/slow-store.ts";
import { startTestServer, type TestServer } from "../helpers.ts";
import { createRequest, localReceivers } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { expectOneSendPerAttempt, slowSends } from "../webhooks/slow-sends.ts";
import { allDeliveriesFinished } from "./outbox-drained.ts";

const servers: TestServer[] = [];
const stores: Store[] = [];
let hook: Receiver | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await hook?.close();
  hook = undefined;
});

async function postgresStore(url: string): Promise<Store> {
  const store = await createPostgresStore({ connectionString: url });
  stores.push(store);
  return store;
}

describeWithPostgres("two instances sending one database's webhooks", () => {
  it("send each attempt of each delivery once, though one instance's database answers later than its leases would last", async () => {
    hook = await startReceiver({ status: 200, body: "ok", afterMs: slowSends.answerAfterMs });
    const receiver = hook;
    const config: SandboxConfig = {
      ...createDefaultConfig(),
      ...localReceivers,
      ...slowSends.config,
      webhookPollIntervalMs: 20,
    };
    (config.accounts[0] as SandboxConfig["accounts"][number]).webhookEndpoints = [{ url: receiver.url }];
    const url = await (await sharedPostgres()).createMigratedDatabase();

    // The first instance's database answers each call late: an attempt of it takes longer, from
    // its claim to its result, than a lease of twice the timeout and a second.
    let late = false;
    const first = await startTestServer({
      config,
      store: createSlowStore(await postgresStore(url), slowSends.storeDelayMs, () => late),
    });
    servers.push(first);
    // The events wait in the outbox until the first instance's worker starts, so that it takes them.
    await first.server.webhooks.stop();
    const requestIds = await Promise.all(
      Array.from({ length: slowSends.events }, () => createRequest(first)),
    );
    await Promise.all(
      requestIds.map(async (requestId) => {
        const paid = await first.call("POST", `/sandbox/requests/${requestId}/payments`, {
          body: { outcome: "paid" },
        });
        expect(paid.status).toBe(201);
      }),
    );
    late = true;
    first.server.webhooks.start();

    // The second instance joins once the first one's attempts are under way, and polls for the
    // deliveries no live instance holds.
    await receiver.arrived(1);
    const store = await postgresStore(url);
    const second = await startTestServer({ config, store });
    servers.push(second);
    await allDeliveriesFinished(store);
    // Nothing is left to send once every delivery is delivered; stopping ends what is under way.
    await Promise.all([first.server.webhooks.stop(), second.server.webhooks.stop()]);

    await expectOneSendPerAttempt(receiver, store, slowSends.events);
    expect([...first.loggedErrors, ...second.loggedErrors]).toEqual([]);
  });
});
