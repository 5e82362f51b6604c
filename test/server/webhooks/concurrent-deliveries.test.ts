import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRequest, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const warnings: Error[] = [];
const collect = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings.length = 0;
  process.on("warning", collect);
});
afterEach(() => {
  process.off("warning", collect);
});

describe("many deliveries in flight at once", () => {
  let hook: Receiver | undefined;
  afterEach(() => hook?.close());

  it("add no listener to a shared signal: more than ten attempts raise no MaxListenersExceededWarning", async () => {
    const receiver = await startReceiver({ hang: true });
    hook = receiver;
    const inFlight = 15;
    const server = await startWebhookServer({
      endpoints: Array.from({ length: inFlight }, (_, index) => ({
        url: `${receiver.url}?endpoint=${index}`,
      })),
    });
    try {
      const requestId = await createRequest(server);
      const paid = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
        body: { outcome: "paid" },
      });
      expect(paid.status).toBe(201);
      // Every attempt is under way: the receiver holds them all unanswered.
      await receiver.arrived(inFlight);
      expect(receiver.received).toHaveLength(inFlight);
      // Node reports the warning on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await server.close();
    }
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });
});
