import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayreqClient, unwrap } from "../../src/index.ts";
import { type Sandbox, startSandbox } from "../../src/testing/index.ts";
import { describeWithPostgres, sharedPostgres } from "../support/postgres.ts";

const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

/** What every store must do: create through the typed client, pay through the sandbox, see the webhook. */
function sandboxTests(start: () => Promise<Sandbox>) {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await start();
  });
  afterAll(() => sandbox?.stop());

  it("serves the API with its own credentials, and records a payment whose signed webhook it captures", async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.webhooks.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    expect(sandbox.webhooks.secret).toMatch(/^whsec_/);
    const client = createPayreqClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const created = unwrap(
      await client.POST("/v2/secure-payments", {
        body: {
          requests: [{ payee, amount: "40.00", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
        },
      }),
    );
    const requestId = created.requestIds[0] as string;
    const partial = await sandbox.recordPayment(requestId, { outcome: "partial", amount: "10" });
    expect(partial).toMatchObject({ requestId, status: "partially_paid", amountPaid: "10" });

    const webhook = await sandbox.webhooks.waitFor(
      (delivery) => delivery.event === "payment.partial" && delivery.requestId === requestId,
    );
    expect(webhook.signatureValid).toBe(true);
    expect(webhook.test).toBe(false);
    expect(webhook.payload).toMatchObject({ event: "payment.partial", requestId, amount: "10" });
  });

  it("triggers an event as payreq webhooks trigger does, and waits for its delivery by name", async () => {
    sandbox.webhooks.clear();
    await sandbox.trigger("payment.confirmed");
    const webhook = await sandbox.webhooks.waitFor("payment.confirmed");
    expect(webhook.payload).toMatchObject({ event: "payment.confirmed" });
    expect(sandbox.webhooks.received().map((delivery) => delivery.event)).toContain("payment.confirmed");
  });

  it("moves the account's clock by seconds and to an instant", async () => {
    const moved = await sandbox.clock.set("2030-01-01T00:00:00.000Z");
    expect(Date.parse(moved)).toBeGreaterThanOrEqual(Date.parse("2030-01-01T00:00:00.000Z"));
    const later = await sandbox.clock.advance(86_400);
    expect(Date.parse(later) - Date.parse(moved)).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(await sandbox.clock.now())).toBeGreaterThanOrEqual(Date.parse(later));
  });

  it("adds a fault for the next call of one operation, lists it, and it ends after that call", async () => {
    const fault = await sandbox.faults.add({
      operationId: "listCurrencies",
      kind: "status",
      status: 429,
      retryAfterSeconds: 7,
      calls: 1,
    });
    expect(fault).toMatchObject({ operationId: "listCurrencies", kind: "status", status: 429, callsLeft: 1 });
    expect((await sandbox.faults.list()).map((listed) => listed.id)).toEqual([fault.id]);
    const call = () =>
      fetch(`${sandbox.url}/v1/currencies?network=base`, { headers: { "x-api-key": sandbox.apiKey } });
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("7");
    expect((await call()).status).toBe(200);
    expect(await sandbox.faults.list()).toEqual([]);
    const lasting = await sandbox.faults.add({ kind: "latency", latencyMs: 1 });
    await sandbox.faults.remove(lasting.id);
    await sandbox.faults.add({ kind: "latency", latencyMs: 1 });
    await sandbox.faults.clear();
    expect(await sandbox.faults.list()).toEqual([]);
  });

  it("says what it waited for when no webhook comes", async () => {
    await expect(sandbox.webhooks.waitFor("kyt.screening.completed", { timeoutMs: 50 })).rejects.toThrow(
      /^no webhook "kyt\.screening\.completed" arrived within 50 ms \(\d+ received\)$/,
    );
  });
}

describe("startSandbox() on the in-memory store", () => {
  sandboxTests(() => startSandbox());
});

describeWithPostgres("startSandbox({ databaseUrl })", () => {
  sandboxTests(async () => startSandbox({ databaseUrl: await (await sharedPostgres()).createDatabase() }));
});

describe("startSandbox's options", () => {
  it("refuses a bad configuration member, naming it", async () => {
    await expect(startSandbox({ config: { webhookTimeoutMs: "soon" } })).rejects.toThrow(/webhookTimeoutMs/);
  });

  it("without capture, registers no endpoint and says so when its deliveries are read", async () => {
    const sandbox = await startSandbox({ captureWebhooks: false });
    try {
      const answer = await fetch(`${sandbox.url}/sandbox/webhooks/endpoints`, {
        headers: { "x-api-key": sandbox.apiKey },
      });
      const body = (await answer.json()) as { endpoints: { url: string }[] };
      expect(body.endpoints.filter((endpoint) => endpoint.url.startsWith("http://127.0.0.1:"))).toEqual([]);
      expect(() => sandbox.webhooks.received()).toThrow(
        "webhooks are not captured: the sandbox was started with captureWebhooks: false",
      );
    } finally {
      await sandbox.stop();
    }
  });
});
