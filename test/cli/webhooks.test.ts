import { once } from "node:events";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createDefaultConfig,
  createServer,
  type PayreqServer,
  type RunningServer,
  type SandboxConfig,
  sampleCredentials,
} from "../../src/server/index.ts";
import { createSignedWebhookRequest, signWebhook } from "../../src/webhooks/index.ts";
import { findFreePort } from "../support/prism.ts";
import { runGuideCommands } from "../support/run-guide-commands.ts";
import { type RunningPayreq, runPayreq, runPayreqInProcess, startPayreq } from "./payreq-process.ts";

const apiKey = sampleCredentials.apiKey;
const environmentKey = "sk_sandbox_from_environment_01";
const ready = /Ready: waiting for deliveries\./;
const requestIdPattern = /with request (01[0-9a-f]{64})\./;

let server: PayreqServer;
let running: RunningServer;
const serverErrors: string[] = [];
const started: RunningPayreq[] = [];
const receivers: Server[] = [];

beforeAll(async () => {
  // Short retry waits, so that an unexpected failure settles quickly instead of retrying for 21 s;
  // the listeners and receivers run on 127.0.0.1, which the address guard refuses unless allowed.
  const config = {
    ...createDefaultConfig(),
    webhookRetryDelaysMs: [20, 20, 20],
    webhookTimeoutMs: 15_000,
    allowWebhookTargets: ["127.0.0.1"],
  };
  // A second key of the sandbox account, as a developer's own key in PAYREQ_API_KEY.
  config.accounts[0]?.apiKeys.push(environmentKey);
  server = createServer({
    config,
    logger: { error: (message) => serverErrors.push(message) },
  });
  running = await server.listen({ port: 0, host: "127.0.0.1" });
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((command) => command.kill()));
  await Promise.all(
    receivers.splice(0).map((receiver) => {
      receiver.closeAllConnections();
      return new Promise((resolve) => receiver.close(resolve));
    }),
  );
});

afterAll(async () => {
  await running?.close();
  expect(serverErrors).toEqual([]);
});

async function listen(args: string[]): Promise<RunningPayreq> {
  const listener = await startPayreq(["webhooks", "listen", ...args], ready);
  started.push(listener);
  return listener;
}

function bannerValue(listener: RunningPayreq, label: string): string {
  const match = new RegExp(`^ {2}${label}:\\s+(\\S+)`, "m").exec(listener.output());
  if (!match) throw new Error(`no ${label} in the banner:\n${listener.output()}`);
  return match[1] as string;
}

// biome-ignore lint/suspicious/noExplicitAny: the delivery log is read freely; the assertions check it
async function sandboxGet(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${running.url}${path}`, { headers: { "x-api-key": apiKey } });
  return { status: response.status, body: await response.json() };
}

interface Captured {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The integrator's endpoint: records each request's raw bytes and headers and answers 202. */
async function startReceiver(): Promise<{ url: string; captured: Captured[] }> {
  const captured: Captured[] = [];
  const receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      captured.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(202, { "content-type": "application/json" }).end('{"queued":true}');
    });
  });
  receivers.push(receiver);
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/payreq`, captured };
}

describe("payreq webhooks listen + trigger against a reference server", () => {
  it("delivers a triggered payment.confirmed to the listener, which verifies and prints it once", async () => {
    const listener = await listen(["--server", running.url, "--api-key", apiKey]);
    const listenerUrl = bannerValue(listener, "Listening");
    const endpointId = bannerValue(listener, "Endpoint");
    expect(listenerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    expect(endpointId).toMatch(/^we_[0-9A-Z]{26}$/);
    const registered = await sandboxGet(`/sandbox/webhooks/endpoints/${endpointId}`);
    expect(registered.body).toMatchObject({ id: endpointId, url: listenerUrl, source: "api" });
    // The secret is only printed when asked for.
    expect(listener.output()).not.toMatch(/Secret:/);

    // The executable here and against `payreq serve` below; the other triggers run in this process.
    const trigger = await runPayreq(["webhooks", "trigger", "payment.confirmed", "--server", running.url]);
    expect(trigger.stderr).toBe("");
    expect(trigger.status).toBe(0);
    const requestId = requestIdPattern.exec(trigger.stdout)?.[1] as string;
    expect(requestId).toBeDefined();
    expect(trigger.stdout).toContain("The request is now paid: 125 of 125 USDC-base paid.");
    expect(trigger.stdout).toContain(`payment.confirmed goes to 1 webhook endpoint(s): ${listenerUrl}`);
    expect(trigger.stdout).toContain(
      `Deliveries: curl -H 'x-api-key: ${apiKey}' '${running.url}/sandbox/webhooks/deliveries?requestId=${requestId}'`,
    );

    await server.webhooks.settled();
    const log = await sandboxGet(`/sandbox/webhooks/deliveries?requestId=${requestId}`);
    // The request is a new secure payment link's: its payment also sends the .checkout duplicate.
    expect(log.body.deliveries.map((entry: { event: string }) => entry.event).sort()).toEqual([
      "payment.confirmed",
      "payment.confirmed.checkout",
    ]);
    const delivery = log.body.deliveries.find(
      (entry: { event: string }) => entry.event === "payment.confirmed",
    );
    expect(delivery).toMatchObject({ endpointId, event: "payment.confirmed", state: "delivered" });
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200]);

    const line = new RegExp(
      `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z  payment\\.confirmed  requestId=${requestId}  delivery=${delivery.id}  retry=0  test=false  signature=ok  answered=200$`,
      "m",
    );
    await listener.waitFor(line);
    expect(listener.output().match(/ payment\.confirmed {2}requestId=/g)).toHaveLength(1);

    // A delivery signed with another secret: answered 401, printed as rejected.
    const forged = createSignedWebhookRequest({
      secret: "whsec_not_the_endpoints_secret_51c0",
      payload: { event: "payment.confirmed", requestId },
    });
    const answer = await fetch(listenerUrl, { method: "POST", headers: forged.headers, body: forged.body });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({
      type: "/problems/invalid-signature",
      reason: "signature_mismatch",
    });
    await listener.waitFor(
      new RegExp(
        `Z  rejected payment\\.confirmed  requestId=${requestId}  delivery=${forged.deliveryId}  retry=0  test=false  signature=signature_mismatch  answered=401 \\(`,
      ),
    );

    // Stopping deletes the endpoint it registered.
    expect(await listener.stop("SIGTERM")).toBe(0);
    expect(listener.output()).toContain(`Deleted webhook endpoint ${endpointId} from ${running.url}.`);
    expect((await sandboxGet(`/sandbox/webhooks/endpoints/${endpointId}`)).status).toBe(404);
  });

  it("forwards verified deliveries byte for byte and answers with the endpoint's status", async () => {
    const receiver = await startReceiver();
    const listener = await listen([
      "--server",
      running.url,
      "--forward-to",
      receiver.url,
      "--print-secret",
      "--json",
    ]);
    const listenerUrl = bannerValue(listener, "Listening");
    const secret = bannerValue(listener, "Secret");
    expect(listener.output()).toContain(`Forwarding:  to ${receiver.url} (the sender gets its status)`);

    const trigger = await runPayreqInProcess([
      "webhooks",
      "trigger",
      "payment.partial",
      "--amount",
      "40",
      "--server",
      running.url,
    ]);
    expect(trigger.status).toBe(0);
    const requestId = requestIdPattern.exec(trigger.stdout)?.[1] as string;
    expect(trigger.stdout).toContain("The request is now partially_paid: 40 of 125 USDC-base paid.");
    await server.webhooks.settled();
    const delivery = (
      await sandboxGet(`/sandbox/webhooks/deliveries?requestId=${requestId}`)
    ).body.deliveries.find((entry: { event: string }) => entry.event === "payment.partial");
    // The service saw the integrator's 202, passed through the listener.
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([202]);
    await listener.waitFor(
      new RegExp(
        `  payment\\.partial  requestId=${requestId}  delivery=${delivery.id}  retry=0  test=false  signature=ok  forwarded=202$`,
        "m",
      ),
    );
    // The link's .checkout duplicate is forwarded too, as a delivery of its own.
    await listener.waitFor(/ {2}payment\.partial\.checkout {2}requestId=.*forwarded=202$/m);
    expect(receiver.captured).toHaveLength(2);
    const forwarded = receiver.captured.find(
      (entry) => entry.headers["x-request-network-delivery"] === delivery.id,
    ) as Captured;
    expect(forwarded.url).toBe("/hooks/payreq");
    expect(forwarded.headers["content-type"]).toBe("application/json");
    expect(forwarded.headers["x-request-network-delivery"]).toBe(delivery.id);
    expect(forwarded.headers["x-request-network-retry-count"]).toBe("0");
    expect(forwarded.headers["x-request-network-test"]).toBeUndefined();
    expect(forwarded.headers["x-request-network-signature"]).toBe(signWebhook(secret, forwarded.body));
    expect(JSON.parse(forwarded.body.toString("utf8"))).toEqual(delivery.payload);
    expect(delivery.payload).toMatchObject({ event: "payment.partial", requestId, amount: "40" });
    // --json prints the body after the line, in a write of its own: wait for it too.
    await listener.waitFor(/^ {2}"totalAmountPaid": "40",$/m);

    // Bytes the server would never produce (spacing, escapes, a trailing newline) reach the endpoint unchanged.
    const rawBody = Buffer.from(
      `{"event":"payment.confirmed" , "requestId":"${requestId}","note":"caf\\u00e9 ☕"}\n`,
    );
    const sent = createSignedWebhookRequest({ secret, payload: rawBody.toString("utf8"), retryCount: 2 });
    const answer = await fetch(listenerUrl, {
      method: "POST",
      headers: { ...sent.headers, "x-request-network-test": "true" },
      body: rawBody,
    });
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe('{"queued":true}');
    expect(receiver.captured).toHaveLength(3);
    const direct = receiver.captured[2] as Captured;
    expect(direct.body.equals(rawBody)).toBe(true);
    expect(direct.headers["x-request-network-signature"]).toBe(sent.headers["x-request-network-signature"]);
    expect(direct.headers["x-request-network-delivery"]).toBe(sent.deliveryId);
    expect(direct.headers["x-request-network-retry-count"]).toBe("2");
    expect(direct.headers["x-request-network-test"]).toBe("true");
    await listener.waitFor(
      new RegExp(`delivery=${sent.deliveryId}  retry=2  test=true  signature=ok  forwarded=202$`, "m"),
    );

    // A body changed after signing is rejected and not forwarded.
    const tampered = createSignedWebhookRequest({
      secret,
      payload: { event: "payment.confirmed", requestId },
    });
    const rejected = await fetch(listenerUrl, {
      method: "POST",
      headers: tampered.headers,
      body: tampered.body.replace("payment.confirmed", "payment.confirmeD"),
    });
    expect(rejected.status).toBe(401);
    await listener.waitFor(
      new RegExp(
        `delivery=${tampered.deliveryId}  retry=0  test=false  signature=signature_mismatch  answered=401`,
      ),
    );
    expect(receiver.captured).toHaveLength(3);
  });

  it("answers 502 when the endpoint it forwards to is unreachable (with --secret, registering nothing)", async () => {
    const secret = "whsec_configured_elsewhere_8d2f";
    const closed = `http://127.0.0.1:${await findFreePort()}/hooks`;
    const listener = await listen(["--secret", secret, "--forward-to", closed]);
    expect(listener.output()).toContain("Endpoint:    none registered (--secret given)");
    const before = (await sandboxGet("/sandbox/webhooks/endpoints")).body.endpoints.length;

    const delivery = createSignedWebhookRequest({
      secret,
      payload: { event: "payment.failed", requestId: `01${"ab".repeat(32)}` },
    });
    const answer = await fetch(bannerValue(listener, "Listening"), {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({
      status: 502,
      detail: `${closed}: connection refused (ECONNREFUSED)`,
    });
    await listener.waitFor(
      new RegExp(
        `  payment\\.failed  requestId=01(ab){32}  delivery=${delivery.deliveryId}  retry=0  test=false  signature=ok  forwarded=failed \\(connection refused \\(ECONNREFUSED\\)\\)  answered=502$`,
        "m",
      ),
    );
    expect(await listener.stop("SIGINT")).toBe(0);
    expect((await sandboxGet("/sandbox/webhooks/endpoints")).body.endpoints.length).toBe(before);
  });

  it("with --secret, receives the deliveries of an endpoint from the server's configuration file", async () => {
    const port = await findFreePort();
    const secret = "whsec_dev_0123456789abcdef";
    const devKey = "sk_dev_0123456789abcdef";
    const config: SandboxConfig = {
      accounts: [
        {
          id: "acct_dev",
          apiKeys: [devKey],
          webhookSecret: secret,
          webhookEndpoints: [{ url: `http://127.0.0.1:${port}/webhooks` }],
          clientIds: [],
        },
      ],
      allowWebhookTargets: [`http://127.0.0.1:${port}`],
      webhookRetryDelaysMs: [20, 20, 20],
    };
    const configured = createServer({
      config,
      logger: { error: (message) => serverErrors.push(message) },
    });
    const configuredRunning = await configured.listen({ port: 0, host: "127.0.0.1" });
    try {
      const listener = await listen(["--port", String(port), "--secret", secret]);
      expect(bannerValue(listener, "Listening")).toBe(`http://127.0.0.1:${port}/webhooks`);
      const trigger = await runPayreqInProcess([
        "webhooks",
        "trigger",
        "payment.failed",
        "--server",
        configuredRunning.url,
        "--api-key",
        devKey,
      ]);
      expect(trigger.status).toBe(0);
      expect(trigger.stdout).not.toContain(devKey);
      expect(trigger.stdout).toContain("The request is now failed: 0 of 125 USDC-base paid.");
      expect(trigger.stdout).toContain(
        `payment.failed goes to 1 webhook endpoint(s): http://127.0.0.1:${port}/webhooks`,
      );
      const requestId = requestIdPattern.exec(trigger.stdout)?.[1] as string;
      expect(trigger.stdout).toContain(
        `Deliveries: curl -H 'x-api-key: <your API key>' '${configuredRunning.url}/sandbox/webhooks/deliveries?requestId=${requestId}'`,
      );
      await configured.webhooks.settled();
      await listener.waitFor(
        new RegExp(
          `  payment\\.failed  requestId=${requestId}  delivery=01[0-9A-Z]{24}  retry=0  test=false  signature=ok  answered=200$`,
          "m",
        ),
      );
    } finally {
      await configuredRunning.close();
    }
  });

  it("prints Deliveries commands that work when pasted with the key in PAYREQ_API_KEY", async () => {
    const fromEnvironment = { PAYREQ_API_KEY: environmentKey };
    const listener = await startPayreq(
      ["webhooks", "listen", "--server", running.url],
      ready,
      fromEnvironment,
    );
    started.push(listener);
    const endpointId = bannerValue(listener, "Endpoint");
    const listenCommand = /^ {2}Deliveries: {2}(.*)$/m.exec(listener.output())?.[1];
    expect(listenCommand).toBe(
      `curl -H "x-api-key: $PAYREQ_API_KEY" '${running.url}/sandbox/webhooks/deliveries?endpointId=${endpointId}'`,
    );
    const trigger = await runPayreqInProcess(
      ["webhooks", "trigger", "payment.confirmed", "--server", running.url],
      fromEnvironment,
    );
    expect(trigger.status).toBe(0);
    expect(trigger.stdout).not.toContain(environmentKey);
    const requestId = requestIdPattern.exec(trigger.stdout)?.[1] as string;
    const triggerCommand = /^ {2}Deliveries: (.*)$/m.exec(trigger.stdout)?.[1];
    expect(triggerCommand).toBe(
      `curl -H "x-api-key: $PAYREQ_API_KEY" '${running.url}/sandbox/webhooks/deliveries?requestId=${requestId}'`,
    );
    await server.webhooks.settled();
    // Pasted into a shell that has PAYREQ_API_KEY, each lists the delivery to this listener.
    for (const command of [listenCommand, triggerCommand]) {
      const pasted = await runGuideCommands(`${command} -s -w '\n%{http_code}'`, fromEnvironment);
      expect(pasted.status).toBe(0);
      const [body, status] = pasted.stdout.split("\n");
      expect(status).toBe("200");
      const deliveries = JSON.parse(body as string).deliveries as {
        endpointId: string;
        requestId: string;
        event: string;
      }[];
      // The core event and the link's .checkout duplicate.
      const ours = deliveries.filter((delivery) => delivery.endpointId === endpointId);
      expect(ours.map((delivery) => [delivery.requestId, delivery.event]).sort()).toEqual([
        [requestId, "payment.confirmed"],
        [requestId, "payment.confirmed.checkout"],
      ]);
    }
  });

  it("says what the server refused when the API key is wrong, without printing the key", async () => {
    const run = await runPayreqInProcess([
      "webhooks",
      "trigger",
      "payment.failed",
      "--server",
      running.url,
      "--api-key",
      "sk_wrong-key-do-not-print",
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr.split("\n")[0]).toMatch(
      new RegExp(`^could not list the webhook endpoints: ${running.url} answered 401 `),
    );
    expect(run.stderr).toContain("Check the API key: --api-key KEY, or PAYREQ_API_KEY");
    expect(run.stderr).not.toContain("sk_wrong-key-do-not-print");
  });

  it("triggers each of the five other events, which the listener verifies and prints", async () => {
    const listener = await listen(["--server", running.url, "--api-key", apiKey]);
    const endpointId = bannerValue(listener, "Endpoint");
    const listenerUrl = bannerValue(listener, "Listening");
    const runs: [string[], RegExp, RegExp][] = [
      [
        ["payment.processing", "--sub-status", "fiat_sent"],
        /Recorded a processing payment on request 01/,
        /payment\.processing {2}requestId=01[0-9a-f]{64} {2}.*signature=ok {2}answered=200$/m,
      ],
      [
        ["payment.refunded"],
        /Recorded a refunded payment of 125 USDC-base .*\n {2}The request is now pending: 0 of 125 USDC-base paid\./,
        /payment\.refunded {2}requestId=01[0-9a-f]{64} {2}.*signature=ok {2}answered=200$/m,
      ],
      [
        ["request.recurring"],
        /Request 01[0-9a-f]{64} recurs from 01[0-9a-f]{64}\./,
        /request\.recurring {2}requestId=01[0-9a-f]{64} {2}.*signature=ok {2}answered=200$/m,
      ],
      [
        ["compliance.updated", "--kyc-status", "rejected"],
        /Payer payreq-cli-\w+ now has kycStatus rejected and agreementStatus completed \(compliant: false\)\./,
        /compliance\.updated {2}requestId=- {2}.*signature=ok {2}answered=200$/m,
      ],
      [
        ["payment_detail.updated", "--status", "verified"],
        /Their status is now verified\./,
        /payment_detail\.updated {2}requestId=- {2}.*signature=ok {2}answered=200$/m,
      ],
    ];
    for (const [args, said, printed] of runs) {
      const trigger = await runPayreqInProcess(["webhooks", "trigger", ...args, "--server", running.url]);
      expect(trigger.stderr, args[0]).toBe("");
      expect(trigger.status, args[0]).toBe(0);
      expect(trigger.stdout).toMatch(said);
      // Listeners of earlier tests may still be registered; this one must be among the endpoints.
      expect(trigger.stdout).toMatch(
        new RegExp(`${args[0]} goes to \\d+ webhook endpoint\\(s\\): .*${listenerUrl}`),
      );
      await server.webhooks.settled();
      await listener.waitFor(printed);
    }
    // The listener's endpoint would otherwise stay registered for the tests that follow.
    const removed = await fetch(`${running.url}/sandbox/webhooks/endpoints/${endpointId}`, {
      method: "DELETE",
      headers: { "x-api-key": apiKey },
    });
    expect(removed.status).toBe(204);
  });
});

describe("payreq webhooks trigger for the Auth API's newer events", () => {
  it("links a client ID for real for client_id.linked, refuses a wallet for real for access_rejected, and sends the two others as tests, to the listener", async () => {
    const listener = await listen(["--server", running.url, "--api-key", apiKey]);
    const endpointId = bannerValue(listener, "Endpoint");
    const listenerUrl = bannerValue(listener, "Listening");
    const runs: [string, RegExp, RegExp][] = [
      [
        "client_id.linked",
        /Wallet 0x[0-9a-fA-F]{40} signed in, registered 0x[0-9a-fA-F]{40}@eip155:11155111#[0-9A-F]{8}:0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C and completed the intent: client ID cli_[0-9a-f]{32} is linked/,
        /client_id\.linked {2}requestId=- {2}.*test=false {2}signature=ok {2}answered=200$/m,
      ],
      [
        "kyt.screening.completed",
        /sent a test delivery \(x-request-network-test: true\) with placeholder values to each of the \d+ webhook endpoint\(s\)/,
        /kyt\.screening\.completed {2}requestId=- {2}.*test=true {2}signature=ok {2}answered=200$/m,
      ],
      [
        "secure_payment.user_event",
        /does not produce secure_payment\.user_event on its own/,
        /secure_payment\.user_event {2}requestId=01[0-9a-f]{64} {2}.*test=true {2}signature=ok {2}answered=200$/m,
      ],
      [
        "secure_payment.access_rejected",
        /Secure payment [0-9A-Z]{26} refused 0x522af70ff759ffaf327ba8f73a2710bdd39f33b9: secure_payment\.access_rejected is sent/,
        /secure_payment\.access_rejected {2}requestId=01[0-9a-f]{64} {2}.*test=false {2}signature=ok {2}answered=200$/m,
      ],
    ];
    try {
      for (const [event, said, printed] of runs) {
        const trigger = await runPayreqInProcess(["webhooks", "trigger", event, "--server", running.url]);
        expect(trigger.stderr, event).toBe("");
        expect(trigger.status, event).toBe(0);
        expect(trigger.stdout).toMatch(said);
        expect(trigger.stdout).toMatch(
          new RegExp(
            `${event.replaceAll(".", "\\.")} goes to \\d+ webhook endpoint\\(s\\): .*${listenerUrl}`,
          ),
        );
        await server.webhooks.settled();
        await listener.waitFor(printed);
        if (event === "secure_payment.access_rejected") {
          // The same wallet on the same link within 10 minutes: suppressed, as the service does.
          const token = /Created secure payment ([0-9A-Z]{26}) with client ID/.exec(
            trigger.stdout,
          )?.[1] as string;
          const again = await runPayreqInProcess([
            "webhooks",
            "trigger",
            event,
            "--token",
            token,
            "--server",
            running.url,
          ]);
          expect(again.status).toBe(0);
          expect(again.stdout).toContain(
            `Secure payment ${token} refused 0x522af70ff759ffaf327ba8f73a2710bdd39f33b9 again: nothing is sent, as the service suppresses repeats until`,
          );
        }
      }
    } finally {
      await fetch(`${running.url}/sandbox/webhooks/endpoints/${endpointId}`, {
        method: "DELETE",
        headers: { "x-api-key": apiKey },
      });
    }
  });
});

describe("payreq webhooks trigger on an account with more endpoints than one page lists", () => {
  it("names the receiving endpoint on the second page of the sandbox's endpoint list", async () => {
    const config: SandboxConfig = {
      ...createDefaultConfig(),
      allowWebhookTargets: ["127.0.0.1"],
      maxWebhookEndpointsPerAccount: 150,
    };
    const crowded = createServer({ config });
    const crowdedRunning = await crowded.listen({ port: 0, host: "127.0.0.1" });
    const register = async (body: { url: string; events: string[] }) => {
      const answer = await fetch(`${crowdedRunning.url}/sandbox/webhooks/endpoints`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(201);
    };
    try {
      // 101 endpoints fill the first page (100) and more; none of them receives payment.failed.
      for (let index = 0; index < 101; index++) {
        await register({ url: `http://127.0.0.1:9/unused/${index}`, events: ["compliance.updated"] });
      }
      const receiver = await startReceiver();
      await register({ url: receiver.url, events: ["payment.failed"] });

      const trigger = await runPayreqInProcess([
        "webhooks",
        "trigger",
        "payment.failed",
        "--server",
        crowdedRunning.url,
      ]);
      expect(trigger.stderr).toBe("");
      expect(trigger.status).toBe(0);
      expect(trigger.stdout).toContain(`payment.failed goes to 1 webhook endpoint(s): ${receiver.url}\n`);
      await crowded.webhooks.settled();
      expect(receiver.captured.map((request) => JSON.parse(request.body.toString()).event)).toEqual([
        "payment.failed",
      ]);
    } finally {
      await crowdedRunning.close();
    }
  });
});

describe("payreq webhooks listen against payreq serve, as a developer starts them", () => {
  async function serve(args: string[]): Promise<{ serve: RunningPayreq; url: string }> {
    const command = await startPayreq(["serve", "--port", "0", ...args], /Stop with Ctrl\+C\./);
    started.push(command);
    const port = /API:\s+http:\/\/[^:]+:(\d+)/.exec(command.output())?.[1];
    if (!port) throw new Error(`no API URL in the banner:\n${command.output()}`);
    return { serve: command, url: `http://127.0.0.1:${port}` };
  }

  it("works out of the box: the built-in sandbox on loopback lets its webhooks reach this machine", async () => {
    const { serve: server, url } = await serve([]);
    expect(server.output()).toContain(
      "Webhooks may reach this machine (localhost, 127.0.0.1, [::1]): the server listens on loopback only.",
    );
    const listener = await listen(["--server", url]);
    const trigger = await runPayreq(["webhooks", "trigger", "payment.confirmed", "--server", url]);
    expect(trigger.status).toBe(0);
    const requestId = requestIdPattern.exec(trigger.stdout)?.[1] as string;
    await listener.waitFor(
      new RegExp(`Z {2}payment\\.confirmed {2}requestId=${requestId} .* signature=ok {2}answered=200$`, "m"),
    );
  });

  it("refuses the listener when the built-in sandbox listens beyond loopback, saying why", async () => {
    const { serve: server, url } = await serve(["--host", "0.0.0.0"]);
    expect(server.output()).toContain(
      "Webhooks reach public addresses only: the server listens beyond loopback, so receivers on this machine are refused.",
    );
    const refused = await runPayreqInProcess(["webhooks", "listen", "--server", url]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^could not register the listener as a webhook endpoint: .* answered 400 Validation failed: 1 field is invalid: \/body\/url\.\n {2}- \/body\/url: must reach a public address: 127\.0\.0\.1 is a loopback address; allowWebhookTargets in the server's configuration can allow it\n/,
    );
  });
});
