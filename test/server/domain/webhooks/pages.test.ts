import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemErrors, type TestServer } from "../../helpers.ts";
import {
  createRequest,
  recordPayment,
  registerEndpoint,
  startWebhookServer,
} from "../../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../../webhooks/receiver.ts";

let server: TestServer;
let hook: Receiver;
const requestIds: string[] = [];
beforeAll(async () => {
  hook = await startReceiver();
  server = await startWebhookServer();
  for (let n = 0; n < 3; n++) await registerEndpoint(server, `${hook.url}/${n}`);
  for (let n = 0; n < 5; n++) {
    const requestId = await createRequest(server);
    requestIds.push(requestId);
    await recordPayment(server, requestId, { outcome: "paid" });
  }
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

/** Every page of a list, following nextCursor; answers the pages' sizes and the items in order. */
async function readAllPages(
  path: string,
  key: string,
): Promise<{ sizes: number[]; items: { id: string }[] }> {
  const sizes: number[] = [];
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const query: string = cursor === null ? "" : `${separator}cursor=${cursor}`;
    const answer = await server.call("GET", `${path}${query}`);
    expect(answer.status).toBe(200);
    sizes.push(answer.body[key].length);
    items.push(...answer.body[key]);
    cursor = answer.body.nextCursor;
  } while (cursor !== null);
  return { sizes, items };
}

describe("listSandboxWebhookDeliveries and listSandboxWebhookEndpoints, a page at a time", () => {
  it("pages through the delivery log in order, with and without filters", async () => {
    const whole = await server.call("GET", "/sandbox/webhooks/deliveries");
    expect(whole.body.deliveries).toHaveLength(15);
    expect(whole.body.nextCursor).toBeNull();
    const paged = await readAllPages("/sandbox/webhooks/deliveries?limit=4", "deliveries");
    expect(paged.sizes).toEqual([4, 4, 4, 3]);
    expect(paged.items.map((item) => item.id)).toEqual(
      whole.body.deliveries.map((item: { id: string }) => item.id),
    );
    const oneRequest = await readAllPages(
      `/sandbox/webhooks/deliveries?limit=2&requestId=${requestIds[2]}`,
      "deliveries",
    );
    expect(oneRequest.sizes).toEqual([2, 1]);
  });

  it("pages through the endpoints", async () => {
    const paged = await readAllPages("/sandbox/webhooks/endpoints?limit=2", "endpoints");
    expect(paged.sizes).toEqual([2, 1]);
    expect(new Set(paged.items.map((item) => item.id)).size).toBe(3);
  });

  it("refuses a limit out of range and a cursor it never gave", async () => {
    for (const limit of ["0", "501", "x"]) {
      const answer = await server.call("GET", `/sandbox/webhooks/deliveries?limit=${limit}`);
      expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
        "/query/limit",
      ]);
    }
    const forged = await server.call("GET", "/sandbox/webhooks/endpoints?cursor=bm90LWEtbnVtYmVy");
    expect(problemErrors(forged, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/cursor", message: `is not a cursor this list answered, got "bm90LWEtbnVtYmVy"` },
    ]);
  });
});
