import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig, createMemoryStore } from "../../../src/server/index.ts";
import { blockedAddressKind, guardedLookup } from "../../../src/server/webhook-delivery/target-guard.ts";
import { problemErrors, problemsOf, type TestServer } from "../helpers.ts";
import { deliveriesOf, registerEndpoint, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const blocked = { blockPrivateWebhookTargets: true };

describe("blockPrivateWebhookTargets at registration", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startWebhookServer({ settings: blocked });
  });
  afterAll(() => server.close());

  it.each([
    ["http://127.0.0.1:8080/hook", "127.0.0.1 is a loopback address"],
    ["http://[::1]/hook", "::1 is a loopback address"],
    ["http://10.1.2.3/hook", "10.1.2.3 is a private address"],
    ["http://192.168.1.20/hook", "192.168.1.20 is a private address"],
    ["http://172.20.0.5/hook", "172.20.0.5 is a private address"],
    ["http://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"],
    ["http://[fe80::1]/hook", "fe80::1 is a link-local address"],
    ["http://[fd00::5]/hook", "fd00::5 is a private address"],
    ["http://0.0.0.0/hook", "0.0.0.0 is an unspecified address"],
    ["http://[::]/hook", ":: is an unspecified address"],
    // The URL parser writes the mapped address in hex; it is still 127.0.0.1.
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1 is a loopback address"],
    ["http://2130706433/hook", "127.0.0.1 is a loopback address"],
  ])("refuses %s", async (url, reason) => {
    const answer = await server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/url",
        message: `must reach a public address: ${reason}, and blockPrivateWebhookTargets refuses those`,
      },
    ]);
  });

  it.each(["http://localhost:3000/hook", "http://LOCALHOST./hook", "http://api.localhost/hook"])(
    "refuses %s without asking DNS",
    async (url) => {
      const answer = await server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });
      const [issue] = problemErrors(answer, "/problems/validation-failed", 400);
      expect(issue?.path).toBe("/body/url");
      expect(issue?.message).toMatch(/^must reach a public address: .*localhost is a loopback name/);
    },
  );

  it("accepts a public address", async () => {
    const answer = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "https://203.0.113.10/hook" },
    });
    expect(answer.status).toBe(201);
  });

  it("lets private targets through when the flag is off", async () => {
    const open = await startWebhookServer();
    try {
      const answer = await open.call("POST", "/sandbox/webhooks/endpoints", {
        body: { url: "http://127.0.0.1/hook" },
      });
      expect(answer.status).toBe(201);
    } finally {
      await open.close();
    }
  });
});

describe("blockPrivateWebhookTargets at delivery", () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await startReceiver();
  });
  afterAll(() => hook.close());

  it("checks the target again at each attempt, and never connects to a refused one", async () => {
    // An endpoint the store already holds, as if its name had resolved elsewhere when registered.
    const store = createMemoryStore();
    const server = await startWebhookServer({ store, settings: blocked });
    try {
      await store.putWebhookEndpoint({
        id: "we_resolved_elsewhere",
        accountId: "acct_sandbox",
        url: hook.url,
        secret: "whsec_resolved_elsewhere_01",
        events: ["payment.confirmed"],
        source: "api",
        createdAt: "2026-04-12T10:00:00.000Z",
        updatedAt: "2026-04-12T10:00:00.000Z",
      });
      const test = await server.call("POST", "/sandbox/webhooks/endpoints/we_resolved_elsewhere/test");
      expect(test.status).toBe(202);
      await server.server.webhooks.settled();
      expect(hook.received).toEqual([]);
      const [dead] = await deliveriesOf(server, "endpointId=we_resolved_elsewhere");
      expect(dead.state).toBe("dead");
      expect(dead.attempts.map((attempt: { error: string }) => attempt.error)).toEqual(
        Array(4).fill(
          "target refused: 127.0.0.1 is a loopback address, and blockPrivateWebhookTargets refuses those",
        ),
      );
    } finally {
      await server.close();
    }
  });

  it("delivers to the same receiver when the flag is off", async () => {
    const server = await startWebhookServer();
    try {
      const { id } = await registerEndpoint(server, hook.url);
      await server.call("POST", `/sandbox/webhooks/endpoints/${id}/test`);
      await server.server.webhooks.settled();
      expect(hook.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("refuses names resolving to blocked addresses in the connection's own lookup", async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup("localhost", { all: true }, (failure) => resolve(failure)),
    );
    expect(error?.message).toBe("localhost is a loopback name, and blockPrivateWebhookTargets refuses it");
    const resolved = await new Promise<Error | null>((resolve) =>
      guardedLookup("10.20.30.40", {}, (failure) => resolve(failure)),
    );
    expect(resolved?.message).toBe(
      "10.20.30.40 is a private address, and blockPrivateWebhookTargets refuses those",
    );
    const allowed = await new Promise<unknown[]>((resolve) =>
      guardedLookup("203.0.113.10", { all: true }, (_failure, addresses) => resolve(addresses as unknown[])),
    );
    expect(allowed).toEqual([{ address: "203.0.113.10", family: 4 }]);
  });
});

describe("the address table", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "private"],
    ["::ffff:192.168.0.1", "private"],
    ["fc00::1", "private"],
    ["169.254.0.1", "link-local"],
    ["fe80::abcd", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
  ])("%s is %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each(["8.8.8.8", "172.32.0.1", "203.0.113.10", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(blockedAddressKind(address)).toBeUndefined();
    },
  );
});

describe("blockPrivateWebhookTargets in the configuration file", () => {
  it("refuses configured endpoints on literal private addresses or localhost, naming the field", () => {
    const config = { ...createDefaultConfig(), blockPrivateWebhookTargets: true };
    const [account] = config.accounts;
    if (!account) throw new Error("the default configuration has an account");
    account.webhookEndpoints = [
      { url: "https://hooks.example.com/payreq" },
      { url: "http://192.168.0.10/hook" },
      { url: "http://localhost:4000/hook" },
    ];
    expect(problemsOf(config)).toEqual([
      "accounts[0].webhookEndpoints[1].url: must reach a public address: 192.168.0.10 is a private address, and blockPrivateWebhookTargets refuses those",
      "accounts[0].webhookEndpoints[2].url: must reach a public address: localhost is a loopback name, and blockPrivateWebhookTargets refuses it",
    ]);
  });
});
