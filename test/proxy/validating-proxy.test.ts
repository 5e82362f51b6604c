import { once } from "node:events";
import { request as createHttpRequest, createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCall, violationLine } from "../../src/proxy/checked-call.ts";
import { endToEndHeaders } from "../../src/proxy/forward-call.ts";
import { type RunningProxy, startValidatingProxy } from "../../src/proxy/validating-proxy.ts";
import { sampleCredentials } from "../../src/server/config/sandbox-config.ts";
import { createServer } from "../../src/server/create-server.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { findFreePort } from "../support/prism.ts";
import {
  type BrokenUpstream,
  badRequestId,
  securePaymentToken,
  startBrokenUpstream,
} from "./broken-upstream.ts";

const apiKey = sampleCredentials.apiKey;
const requestIdPattern = (loadBundledSpec().components as { schemas: Record<string, { pattern: string }> })
  .schemas.RequestId?.pattern;

/** A proxy in front of `upstream` that keeps the calls it checked. */
async function proxyFor(upstream: string, options: { timeoutMs?: number; strictBodies?: boolean } = {}) {
  const calls: CheckedCall[] = [];
  const proxy = await startValidatingProxy({
    upstream,
    port: 0,
    onCall: (call) => calls.push(call),
    ...options,
  });
  const lines = () =>
    calls.flatMap((call) => call.violations.map((violation) => violationLine(call, violation)));
  return { proxy, calls, lines };
}

const securePaymentBody = {
  requests: [
    {
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      amount: "125.00",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
    },
  ],
  reference: "ORDER-2026-0412",
};

describe("payreq proxy in front of the reference server", () => {
  let stopServer: () => Promise<void>;
  let upstream: string;
  let proxy: RunningProxy;
  let calls: CheckedCall[];
  let lines: () => string[];

  beforeAll(async () => {
    const running = await createServer().listen({ port: 0 });
    upstream = running.url;
    stopServer = running.close;
    ({ proxy, calls, lines } = await proxyFor(upstream));
  });
  afterAll(async () => {
    await proxy?.close();
    await stopServer?.();
  });

  it("passes valid calls on and answers as the server does, reporting no violation but a missing credential", async () => {
    const headers = { "x-api-key": apiKey };
    const currencies = await fetch(`${proxy.url}/v1/currencies?network=base`, { headers });
    const direct = await fetch(`${upstream}/v1/currencies?network=base`, { headers });
    expect(currencies.status).toBe(200);
    expect(await currencies.text()).toBe(await direct.text());
    expect(currencies.headers.get("content-type")).toBe(direct.headers.get("content-type"));

    const head = await fetch(`${proxy.url}/v1/currencies?network=base`, { method: "HEAD", headers });
    expect(head.status).toBe(200);
    const created = await fetch(`${proxy.url}/v2/secure-payments`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(securePaymentBody),
    });
    expect(created.status).toBe(201);
    const { token, requestIds } = (await created.json()) as { token: string; requestIds: string[] };
    const status = await fetch(`${proxy.url}/v2/request/${requestIds[0]}`, { headers });
    expect(status.status).toBe(200);
    const check = await fetch(`${proxy.url}/v2/secure-payments/${token}`, { headers });
    expect(check.status).toBe(200);
    const unauthorized = await fetch(`${proxy.url}/v1/currencies`);
    expect(unauthorized.status).toBe(401);

    // The server's 401 is a documented answer; the call without a credential breaks the spec's security.
    expect(lines()).toEqual([
      "listCurrencies 401 request credentials: none sent: send x-api-key, or x-client-id with origin",
    ]);
    expect(calls.map((call) => [call.operationId, call.method, call.path, call.status])).toEqual([
      ["listCurrencies", "GET", "/v1/currencies", 200],
      ["listCurrencies", "HEAD", "/v1/currencies", 200],
      ["createSecurePayment", "POST", "/v2/secure-payments", 201],
      ["getRequestStatus", "GET", "/v2/request/{requestId}", 200],
      ["checkSecurePaymentToken", "GET", "/v2/secure-payments/{token}", 200],
      ["listCurrencies", "GET", "/v1/currencies", 401],
    ]);
    expect(calls[0]?.requestId).toBe(currencies.headers.get("x-request-id"));
    expect(JSON.stringify(calls)).not.toContain(token);
  });

  it("reports a request that breaks the spec and still passes it on: the server's 400 is a valid answer", async () => {
    const before = calls.length;
    const answer = await fetch(`${proxy.url}/v2/secure-payments`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        ...securePaymentBody,
        requests: [{ ...securePaymentBody.requests[0], amount: "a lot" }],
      }),
    });
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((issue) => issue.path)).toEqual(["/body/requests/0/amount"]);
    expect(calls.slice(before).map((call) => call.violations)).toEqual([
      [{ side: "request", member: "/body/requests/0/amount", rule: 'must match pattern "^\\d+(\\.\\d+)?$"' }],
    ]);
  });
});

describe("payreq proxy in front of an upstream that breaks the spec", () => {
  let upstream: BrokenUpstream;
  let proxy: RunningProxy;
  let calls: CheckedCall[];
  let lines: () => string[];
  const secretKey = "sk_proxy-never-written-5e1d";

  beforeAll(async () => {
    upstream = await startBrokenUpstream();
    ({ proxy, calls, lines } = await proxyFor(upstream.baseUrl, { timeoutMs: 500 }));
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.stop();
  });

  it("prints one line per violation of each answer, and answers the client with the upstream's answer unchanged", async () => {
    const created = await fetch(`${proxy.url}/v2/secure-payments`, {
      method: "POST",
      headers: { "x-api-key": secretKey, "content-type": "application/json" },
      body: JSON.stringify(securePaymentBody),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("set-cookie")).toBe("trace=abc; Path=/");
    expect(((await created.json()) as { requestIds: string[] }).requestIds).toEqual([badRequestId]);
    const currencies = await fetch(`${proxy.url}/v1/currencies?network=base`, {
      headers: { "x-api-key": secretKey },
    });
    expect(await currencies.text()).toBe("USDC");
    const teapot = await fetch(`${proxy.url}/v2/secure-payments/${securePaymentToken}`, {
      headers: { "x-client-id": "pk_proxy-test", origin: "https://shop.example.com" },
    });
    expect(teapot.status).toBe(418);
    const unknown = await fetch(`${proxy.url}/v9/nothing?x=1`, { method: "DELETE" });
    expect(unknown.status).toBe(404);
    // A misspelt path may hold a token or a key: lines and reports name its other segments only.
    const misspelt = await fetch(`${proxy.url}/v2/secure-paymnts/${securePaymentToken}/${secretKey}`);
    expect(misspelt.status).toBe(404);

    expect(lines()).toEqual([
      `createSecurePayment 201 response /requestIds/0: must match pattern "${requestIdPattern}"`,
      "listCurrencies 200 response header x-request-id: is missing",
      'listCurrencies 200 response header content-type: "text/plain" is not documented for 200 (expected application/json)',
      "checkSecurePaymentToken 418 response status: is not documented",
      "DELETE /v9/nothing 404 request path: no operation of the spec",
      "GET /v2/secure-paymnts/{…}/{…} 404 request path: no operation of the spec",
    ]);
    expect(calls.map((call) => [call.path, call.requestId])).toEqual([
      ["/v2/secure-payments", "req-broken-201"],
      ["/v1/currencies", undefined],
      ["/v2/secure-payments/{token}", "req-broken-418"],
      ["/v9/nothing", "req-broken-404"],
      ["/v2/secure-paymnts/{…}/{…}", "req-broken-404"],
    ]);
    expect(JSON.stringify(calls)).not.toContain(securePaymentToken);
    expect(JSON.stringify(calls)).not.toContain(secretKey);
  });

  it("passes a request that breaks the spec on byte for byte, headers and query included, and reports it", async () => {
    const before = calls.length;
    const sent = `{ "requests" : "${secretKey}",\n  "reference": 7 }`;
    const answer = await fetch(`${proxy.url}/v2/secure-payments?trace=1&trace=2`, {
      method: "POST",
      headers: { "x-api-key": secretKey, "content-type": "application/json", "x-custom": "kept" },
      body: sent,
    });
    expect(answer.status).toBe(404); // the upstream has no such path with a query: its answer, as it came
    const received = upstream.received.at(-1);
    expect(received?.method).toBe("POST");
    expect(received?.url).toBe("/v2/secure-payments?trace=1&trace=2");
    expect(received?.body.toString("utf8")).toBe(sent);
    expect(received?.headers["x-api-key"]).toBe(secretKey);
    expect(received?.headers["x-custom"]).toBe("kept");
    expect(received?.headers.host).toBe(new URL(upstream.baseUrl).host);
    expect(received?.headers["content-length"]).toBe(String(Buffer.byteLength(sent)));
    expect(calls.slice(before).flatMap((call) => call.violations.map((v) => violationLine(call, v)))).toEqual(
      [
        // The server's validators stop at an undocumented query parameter, before the body.
        "createSecurePayment 404 request /query/trace: Unknown query parameter 'trace'",
        "createSecurePayment 404 response status: is not documented",
      ],
    );
    const withoutQuery = await fetch(`${proxy.url}/v2/secure-payments`, {
      method: "POST",
      headers: { "x-api-key": secretKey, "content-type": "application/json" },
      body: sent,
    });
    expect(withoutQuery.status).toBe(201);
    expect(calls.at(-1)?.violations.filter((violation) => violation.side === "request")).toEqual([
      { side: "request", member: "/body/requests", rule: "must be array" },
      { side: "request", member: "/body/reference", rule: "must be string" },
    ]);
    expect(JSON.stringify(calls)).not.toContain(secretKey);
  });

  it("answers 504 naming the upstream when it does not answer in full in time, and reports it", async () => {
    const answer = await fetch(`${proxy.url}/hang`);
    expect(answer.status).toBe(504);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toMatchObject({
      type: "/problems/upstream-timeout",
      status: 504,
      detail: `The upstream ${upstream.baseUrl} did not answer in time: no answer within 0.5 s.`,
    });
    expect(lines().at(-1)).toBe(`GET /hang 504 upstream ${upstream.baseUrl}: no answer within 0.5 s`);
    const slow = await fetch(`${proxy.url}/v1/currencies/slow`);
    expect(slow.status).toBe(504);
    expect(lines().at(-1)).toBe(
      `GET /v1/currencies/slow 504 upstream ${upstream.baseUrl}: no answer within 0.5 s`,
    );
  });
});

describe("payreq proxy in front of other upstreams", () => {
  it("answers 502 in the Problem shape naming an upstream that is down, and reports it as a violation", async () => {
    const port = await findFreePort();
    const { proxy, lines } = await proxyFor(`http://127.0.0.1:${port}/base/`);
    try {
      const answer = await fetch(`${proxy.url}/v1/currencies`, { headers: { "x-api-key": apiKey } });
      expect(answer.status).toBe(502);
      expect(await answer.json()).toEqual({
        type: "/problems/upstream-unreachable",
        title: "Bad Gateway",
        status: 502,
        detail: `The upstream http://127.0.0.1:${port}/base could not be reached: connection refused (ECONNREFUSED).`,
        instance: "/v1/currencies",
        statusCode: 502,
        error: "Bad Gateway",
        message: `The upstream http://127.0.0.1:${port}/base could not be reached: connection refused (ECONNREFUSED).`,
      });
      expect(lines()).toEqual([
        `listCurrencies 502 upstream http://127.0.0.1:${port}/base: connection refused (ECONNREFUSED)`,
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("passes calls on under the upstream's base path, those of a client that uses it as its HTTP proxy too", async () => {
    const received: string[] = [];
    const server = createHttpServer((request, response) => {
      received.push(`${request.url} ${request.headers.host}`);
      response.writeHead(204).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const { proxy, calls } = await proxyFor(`http://127.0.0.1:${port}/sandbox/`);
    try {
      await fetch(`${proxy.url}/v1/currencies?network=base`);
      // HTTP_PROXY clients send the absolute form of the target.
      await new Promise<void>((resolve, reject) => {
        const request = createHttpRequest(
          { host: "127.0.0.1", port: proxy.port, path: "http://api.example.com/v1/currencies?network=base" },
          (incoming) => incoming.resume().on("end", resolve),
        );
        request.on("error", reject);
        request.end();
      });
      expect(received).toEqual([
        `/sandbox/v1/currencies?network=base 127.0.0.1:${port}`,
        `/sandbox/v1/currencies?network=base 127.0.0.1:${port}`,
      ]);
      expect(calls.map((call) => [call.operationId, call.status])).toEqual([
        ["listCurrencies", 204],
        ["listCurrencies", 204],
      ]);
    } finally {
      await proxy.close();
      server.close();
    }
  });

  it("passes a compressed answer on as it came and checks its decompressed body", async () => {
    const compressed = gzipSync(JSON.stringify([{ id: 5 }]));
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "x-request-id": "req-gzip",
        connection: "close, x-hop",
        "x-hop": "dropped",
      });
      response.end(compressed);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const { proxy, lines } = await proxyFor(`http://127.0.0.1:${port}`);
    try {
      const answer = await new Promise<{ body: Buffer; headers: Record<string, unknown> }>(
        (resolve, reject) => {
          const request = createHttpRequest(
            `${proxy.url}/v1/currencies`,
            { headers: { "x-api-key": apiKey } },
            (incoming) => {
              const chunks: Buffer[] = [];
              incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
              incoming.on("end", () => resolve({ body: Buffer.concat(chunks), headers: incoming.headers }));
            },
          );
          request.on("error", reject);
          request.end();
        },
      );
      expect(answer.body.equals(compressed)).toBe(true);
      expect(answer.headers["content-encoding"]).toBe("gzip");
      expect(answer.headers["x-hop"]).toBeUndefined();
      // The body is a list of currencies or an object: the list's item breaks it, and so does the list.
      expect(lines()).toEqual([
        ...["name", "symbol", "decimals", "address", "network", "type", "hash", "chainId"].map(
          (member) => `listCurrencies 200 response /0/${member}: must have required property '${member}'`,
        ),
        "listCurrencies 200 response /0/id: must be string",
        "listCurrencies 200 response (body): must be object",
        "listCurrencies 200 response (body): must match exactly one schema in oneOf",
      ]);
    } finally {
      await proxy.close();
      server.close();
    }
  });
});

describe("endToEndHeaders", () => {
  it("drops the hop-by-hop headers and those Connection names, keeping the others in order", () => {
    expect(
      endToEndHeaders([
        "Host",
        "proxy.example",
        "Connection",
        "keep-alive, X-Trace",
        "X-Trace",
        "1",
        "Keep-Alive",
        "timeout=5",
        "Transfer-Encoding",
        "chunked",
        "Set-Cookie",
        "a=1",
        "Set-Cookie",
        "b=2",
        "Upgrade",
        "h2c",
      ]),
    ).toEqual(["Host", "proxy.example", "Set-Cookie", "a=1", "Set-Cookie", "b=2"]);
  });
});
