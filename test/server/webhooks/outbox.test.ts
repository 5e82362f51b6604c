import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore, type Store, type StoreOperations } from "../../../src/server/index.ts";
import { problemErrors, type TestServer } from "../helpers.ts";
import {
  createRequest,
  createSecurePaymentRequest,
  deliveriesOf,
  recordPayment,
  registerEndpoint,
  startWebhookServer,
} from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let server: TestServer | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  await hook?.close();
  server = undefined;
  hook = undefined;
});

/** A memory store whose transactions fail at `securePayments.put` while `armed` is true. */
function storeFailingWhenArmed(): { store: Store; arm(on: boolean): void } {
  const inner = createMemoryStore();
  let armed = false;
  const store: Store = {
    ...inner,
    withTransaction: (work) =>
      inner.withTransaction((tx) => {
        const failing: StoreOperations = {
          ...tx,
          securePayments: {
            ...tx.securePayments,
            put: async (record) => {
              if (armed) throw new Error("injected failure after the payment and its events were written");
              return tx.securePayments.put(record);
            },
          },
        };
        return work(failing);
      }),
  };
  return { store, arm: (on) => (armed = on) };
}

const webhookEvents = (events: { type: string }[]) =>
  events.filter((event) => event.type.startsWith("payment.")).map((event) => event.type);

describe("the outbox", () => {
  it("keeps a payment and its webhook event together: a transaction that fails leaves neither", async () => {
    hook = await startReceiver();
    const { store, arm } = storeFailingWhenArmed();
    server = await startWebhookServer({ store });
    await registerEndpoint(server, hook.url);
    const { requestId } = await createSecurePaymentRequest(server);

    arm(true);
    // Paying the link's only request completes the link, whose write fails after the payment's.
    const failed = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid" },
    });
    problemErrors(failed, "/problems/internal-error", 500);
    await server.server.webhooks.settled();

    const request = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    expect(request).toMatchObject({ status: "pending", amountPaid: "0", payments: [] });
    expect(webhookEvents(await store.listEvents())).toEqual([]);
    expect((await store.listEvents()).map((event) => event.type)).not.toContain("request.payment_recorded");
    expect(hook.received).toEqual([]);
    expect(await deliveriesOf(server, `requestId=${requestId}`)).toEqual([]);

    arm(false);
    await recordPayment(server, requestId, { outcome: "paid" });
    const events = await store.listEvents();
    // The link's request sends its checkout duplicate in the same transaction.
    expect(webhookEvents(events)).toEqual(["payment.confirmed", "payment.confirmed.checkout"]);
    const confirmed = events.find((event) => event.type === "payment.confirmed");
    if (!confirmed) throw new Error("no payment.confirmed in the outbox");
    expect(confirmed.data).toMatchObject({ requestId, accountId: "acct_sandbox" });
    expect(hook.received).toHaveLength(2);
    const received = hook.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")));
    expect(received.find((payload) => payload.event === "payment.confirmed")).toEqual(
      (confirmed.data as { payload: unknown }).payload,
    );
  });

  it("delivers what committed while the worker was stopped, and each event once per endpoint", async () => {
    hook = await startReceiver();
    server = await startWebhookServer();
    await registerEndpoint(server, hook.url);
    const requestId = await createRequest(server);

    await server.server.webhooks.stop();
    await recordPayment(server, requestId, { outcome: "partial", amount: "100" });
    expect(hook.received).toEqual([]);
    expect(await deliveriesOf(server, `requestId=${requestId}`)).toEqual([]);

    server.server.webhooks.start();
    await server.server.webhooks.settled();
    expect(hook.received).toHaveLength(1);

    // Starting again fans nothing out twice and sends nothing delivered again.
    await server.server.webhooks.stop();
    server.server.webhooks.start();
    await recordPayment(server, requestId, { outcome: "paid" });
    const deliveries = await deliveriesOf(server, `requestId=${requestId}`);
    expect(deliveries.map((delivery) => [delivery.event, delivery.state])).toEqual([
      ["payment.partial", "delivered"],
      ["payment.confirmed", "delivered"],
    ]);
    expect(hook.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")).event)).toEqual([
      "payment.partial",
      "payment.confirmed",
    ]);
  });
});
