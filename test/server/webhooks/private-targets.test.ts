import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig, createMemoryStore } from "../../../src/server/index.ts";
import { blockedAddressKind, guardedLookup } from "../../../src/server/webhook-delivery/target-guard.ts";
import { problemErrors, problemsOf, startTestServer, type TestServer } from "../helpers.ts";
import { deliveriesOf, registerEndpoint, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const allowHint = "; allowWebhookTargets in the server's configuration can allow it";
const noneAllowed = { allowWebhookTargets: [] };

describe("the webhook target guard at registration, on by default", () => {
  let server: TestServer;
  beforeAll(async () => {
    // The built-in configuration, which allows no target.
    server = await startTestServer({});
  });
  afterAll(() => server.close());

  it.each([
    ["http://127.0.0.1:8080/hook", "127.0.0.1 is a loopback address"],
    ["http://[::1]/hook", "::1 is a loopback address"],
    ["http://10.1.2.3/hook", "10.1.2.3 is a private address"],
    ["http://192.168.1.20/hook", "192.168.1.20 is a private address"],
    ["http://172.20.0.5/hook", "172.20.0.5 is a private address"],
    ["http://100.64.0.1/hook", "100.64.0.1 is a private (shared, 100.64.0.0/10) address"],
    ["http://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"],
    ["http://[fe80::1]/hook", "fe80::1 is a link-local address"],
    ["http://[fd00::5]/hook", "fd00::5 is a private (unique local, fc00::/7) address"],
    ["http://[fec0::1]/hook", "fec0::1 is a site-local address"],
    ["http://0.0.0.0/hook", "0.0.0.0 is an unspecified address"],
    ["http://[::]/hook", ":: is an unspecified address"],
    ["http://224.0.0.1/hook", "224.0.0.1 is a multicast address"],
    ["http://[ff02::1]/hook", "ff02::1 is a multicast address"],
    ["http://255.255.255.255/hook", "255.255.255.255 is a broadcast address"],
    ["http://240.0.0.1/hook", "240.0.0.1 is a reserved address"],
    ["http://[100::1]/hook", "100::1 is a special-purpose address"],
    ["http://2130706433/hook", "127.0.0.1 is a loopback address"],
    // Every IPv6 form that carries an IPv4 address; the URL parser writes the IPv4 part in hex.
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1 is an IPv4-mapped address"],
    ["http://[::127.0.0.1]/hook", "::7f00:1 is an IPv4-compatible address"],
    ["http://[::ffff:0:127.0.0.1]/hook", "::ffff:0:7f00:1 is an IPv4-translated (::ffff:0:0/96) address"],
    ["http://[64:ff9b::127.0.0.1]/hook", "64:ff9b::7f00:1 is a NAT64 address"],
    ["http://[64:ff9b:1::a00:1]/hook", "64:ff9b:1::a00:1 is a NAT64 address"],
    ["http://[2002:7f00:1::]/hook", "2002:7f00:1:: is a 6to4 address"],
    ["http://[2001:0:7f00:1::]/hook", "2001:0:7f00:1:: is a Teredo address"],
  ])("refuses %s", async (url, reason) => {
    const answer = await server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/url", message: `must reach a public address: ${reason}${allowHint}` },
    ]);
  });

  it.each([
    ["http://localhost:3000/hook", "localhost"],
    ["http://LOCALHOST./hook", "localhost"],
    ["http://api.localhost/hook", "api.localhost"],
  ])("refuses %s without asking DNS", async (url, host) => {
    const answer = await server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/url", message: `must reach a public address: ${host} is a loopback name${allowHint}` },
    ]);
  });

  it("accepts public addresses, IPv4 and IPv6", async () => {
    for (const url of ["https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook"]) {
      const answer = await server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });
      expect(answer.status).toBe(201);
      expect(answer.body.url).toBe(url);
    }
  });
});

describe("allowWebhookTargets", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startWebhookServer({
      settings: { allowWebhookTargets: ["http://127.0.0.1:4000", "localhost"] },
    });
  });
  afterAll(() => server.close());
  const register = (url: string) => server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } });

  it("lets a listed origin through, and that origin only", async () => {
    expect((await register("http://127.0.0.1:4000/hooks")).status).toBe(201);
    expect(
      problemErrors(await register("http://127.0.0.1:4001/hooks"), "/problems/validation-failed", 400),
    ).toEqual([
      {
        path: "/body/url",
        message: `must reach a public address: 127.0.0.1 is a loopback address${allowHint}`,
      },
    ]);
    expect(
      problemErrors(await register("https://127.0.0.1:4000/hooks"), "/problems/validation-failed", 400),
    ).toEqual([
      {
        path: "/body/url",
        message: `must reach a public address: 127.0.0.1 is a loopback address${allowHint}`,
      },
    ]);
  });

  it("lets a listed host through on any port, and no other host", async () => {
    expect((await register("http://localhost:9999/hooks")).status).toBe(201);
    expect((await register("https://LOCALHOST/hooks")).status).toBe(201);
    expect(
      problemErrors(await register("http://[::1]:4000/hooks"), "/problems/validation-failed", 400),
    ).toEqual([
      { path: "/body/url", message: `must reach a public address: ::1 is a loopback address${allowHint}` },
    ]);
  });
});

describe("the webhook target guard at delivery", () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await startReceiver();
  });
  afterAll(() => hook.close());

  it("checks the target again at each attempt, and never connects to a refused one", async () => {
    // An endpoint the store already holds, as if its name had resolved elsewhere when registered.
    const store = createMemoryStore();
    const server = await startWebhookServer({ store, settings: noneAllowed });
    try {
      await store.webhookEndpoints.put({
        id: "we_resolved_elsewhere",
        accountId: "acct_sandbox",
        scope: "account",
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
        Array(4).fill("target refused: 127.0.0.1 is a loopback address"),
      );
    } finally {
      await server.close();
    }
  });

  it("delivers to a receiver that allowWebhookTargets lists", async () => {
    const server = await startWebhookServer({ settings: { allowWebhookTargets: ["127.0.0.1"] } });
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
    expect(error?.message).toBe("localhost is a loopback name");
    const resolved = await new Promise<Error | null>((resolve) =>
      guardedLookup("10.20.30.40", {}, (failure) => resolve(failure)),
    );
    expect(resolved?.message).toBe("10.20.30.40 is a private address");
    const mapped = await new Promise<Error | null>((resolve) =>
      guardedLookup("::ffff:10.20.30.40", {}, (failure) => resolve(failure)),
    );
    expect(mapped?.message).toBe("::ffff:10.20.30.40 is an IPv4-mapped address");
    const allowed = await new Promise<unknown[]>((resolve) =>
      guardedLookup("8.8.8.8", { all: true }, (_failure, addresses) => resolve(addresses as unknown[])),
    );
    expect(allowed).toEqual([{ address: "8.8.8.8", family: 4 }]);
  });
});

describe("the address table", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.0.1", "link-local"],
    ["fe80::abcd", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["239.255.255.250", "multicast"],
    ["ff05::2", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::8.8.8.8", "IPv4-compatible"],
    ["::ffff:0:8.8.8.8", "IPv4-translated (::ffff:0:0/96)"],
    ["64:ff9b::8.8.8.8", "NAT64"],
    ["2002:808:808::1", "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["4000::1", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each(["8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001:80b::200e"])(
    "%s is public",
    (address) => {
      expect(blockedAddressKind(address)).toBeUndefined();
    },
  );

  it.each(["example.com", "0x7f.1", "127.1", ""])("%s is no address", (name) => {
    expect(blockedAddressKind(name)).toBeUndefined();
  });
});

describe("the webhook target guard in the configuration file", () => {
  it("refuses configured endpoints on literal private addresses or localhost unless allowed, naming the field", () => {
    const config = createDefaultConfig();
    const [account] = config.accounts;
    if (!account) throw new Error("the default configuration has an account");
    account.webhookEndpoints = [
      { url: "https://hooks.example.com/payreq" },
      { url: "http://192.168.0.10/hook" },
      { url: "http://localhost:4000/hook" },
      { url: "http://127.0.0.1:4242/webhooks" },
    ];
    expect(problemsOf(config)).toEqual([
      `accounts[0].webhookEndpoints[1].url: must reach a public address: 192.168.0.10 is a private address${allowHint}`,
      `accounts[0].webhookEndpoints[2].url: must reach a public address: localhost is a loopback name${allowHint}`,
      `accounts[0].webhookEndpoints[3].url: must reach a public address: 127.0.0.1 is a loopback address${allowHint}`,
    ]);
    expect(
      problemsOf({ ...config, allowWebhookTargets: ["192.168.0.10", "localhost", "http://127.0.0.1:4242"] }),
    ).toEqual([]);
  });
});
