import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("errors as Problem Details", () => {
  it("answers an unknown path with 404 not-found", async () => {
    const answer = await server.call("GET", "/v3/currencies");
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body).toMatchObject({
      title: "Not found",
      statusCode: 404,
      error: "Not Found",
      instance: "/v3/currencies",
      detail: "No operation has the path /v3/currencies; see /openapi.json for the API.",
    });
    expect(answer.body.message).toBe(answer.body.detail);
  });

  it("answers a known path with another method with 405 and Allow", async () => {
    const answer = await server.call("DELETE", "/v2/secure-payments");
    problemErrors(answer, "/problems/method-not-allowed", 405);
    expect(answer.headers.get("allow")).toBe("GET, POST, HEAD");
    const secure = await server.call("PUT", "/v1/currencies");
    expect(secure.status).toBe(405);
    expect(secure.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers HEAD on every GET operation as the GET would, without a body", async () => {
    const get = await server.call("GET", "/v1/currencies?network=sepolia");
    const head = await server.call("HEAD", "/v1/currencies?network=sepolia");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    const invalid = await server.call("HEAD", "/v1/currencies?firstOnly=maybe");
    expect(invalid.status).toBe(400);
    expect(invalid.text).toBe("");
    const unknown = await server.call("HEAD", `/v2/secure-payments/${"0".repeat(26)}`);
    expect(unknown.status).toBe(404);
    const noGet = await server.call("HEAD", "/v2/payouts/batch");
    expect(noGet.status).toBe(405);
    expect(noGet.headers.get("allow")).toBe("POST");
  });

  it("answers OPTIONS on an API path with 204 and Allow", async () => {
    const answer = await server.call("OPTIONS", "/sandbox/clock");
    expect(answer.status).toBe(204);
    expect(answer.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  it("answers a body that is not JSON with 400 malformed-json", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: '{"requests": [',
      headers: { "content-type": "application/json" },
    });
    problemErrors(answer, "/problems/malformed-json", 400);
    expect(answer.body.detail).toMatch(/^The body is not valid JSON: /);
  });

  it("answers a body in another media type with 415", async () => {
    const answer = await server.call("POST", "/v2/payer", {
      rawBody: "clientUserId=1",
      headers: { "content-type": "text/plain" },
    });
    problemErrors(answer, "/problems/unsupported-media-type", 415);
    expect(answer.body.detail).toBe("Send the body as application/json; got text/plain.");
  });

  it("answers a body over 1 MiB with 413", async () => {
    const rawBody = JSON.stringify({ requests: [usdcOnBase()], reference: "x".repeat(1_048_576) });
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    problemErrors(answer, "/problems/payload-too-large", 413);
    expect(answer.body.detail).toBe(
      `The body is ${rawBody.length} bytes; the limit is 1048576 bytes (1 MiB).`,
    );
  });

  it("reads a body just under 1 MiB (the limit, not the schema, decides the 413)", async () => {
    const rawBody = JSON.stringify({ requests: [usdcOnBase()], reference: "x".repeat(1_048_000) });
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/reference",
    ]);
  });

  it("answers a missing body of a body operation with 400 naming it", async () => {
    const answer = await server.call("POST", "/v2/payer");
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "is required: send a JSON body with Content-Type application/json" },
    ]);
  });

  it("names every invalid field with its path and the value it got", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [{ payee: "0x12", amount: "12,50", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
      },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors).toEqual([
      {
        path: "/body/requests/0/payee",
        message: 'must be an EVM address such as 0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7, got "0x12"',
      },
      { path: "/body/requests/0/amount", message: 'must be a decimal amount such as 12.50, got "12,50"' },
    ]);
    expect(answer.body.detail).toBe("2 fields are invalid: /body/requests/0/payee, /body/requests/0/amount.");
  });

  it("ignores unknown body fields (see request-bodies.test.ts) and rejects unknown query parameters by name", async () => {
    const body = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase()], colour: "blue" },
    });
    expect(body.status).toBe(201);
    const query = await server.call("GET", "/v1/currencies?netwrk=base");
    expect(problemErrors(query, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/netwrk", message: "Unknown query parameter 'netwrk', got \"base\"" },
    ]);
  });

  it("names path parameters as /path/...", async () => {
    const answer = await server.call("GET", "/v2/secure-payments/not-a-token");
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/path/token",
        message: 'must be a ULID such as 01KM9S346Q3D25VT4F5V37E3S3, got "not-a-token"',
      },
    ]);
  });

  it("keeps `instance` a valid URI reference when the path holds a malformed escape", async () => {
    const answer = await server.call("GET", "/v2/request/%E0%A4%A/pay");
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body.instance).toBe("/v2/request/%E0%A4%25A/pay");
  });

  it("refuses bodies nested deeper than 64 levels, which would exhaust the stack", async () => {
    const deep = (levels: number) => `{"requests":${"[".repeat(levels)}${"]".repeat(levels)}}`;
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: deep(100_000),
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "must not nest arrays and objects more than 64 levels deep" },
    ]);
    const shallow = await server.call("POST", "/v2/secure-payments", {
      rawBody: `{"reference":"[[[[\\"{{{{","requests":${"[".repeat(63)}${"]".repeat(63)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(shallow, "/problems/validation-failed", 400)[0]?.path).toBe("/body/requests/0");
    expect(server.loggedErrors).toEqual([]);
  });

  it("never answers 500 to hostile input, and leaves Object.prototype alone", async () => {
    const attempts = [
      server.call("POST", "/v2/payouts/batch", {
        rawBody: '{"__proto__":{"polluted":true},"requestIds":["x"]}',
        headers: { "content-type": "application/json" },
      }),
      server.call("POST", "/v2/secure-payments", {
        rawBody: '{"constructor":{"prototype":{"polluted":true}}}',
        headers: { "content-type": "application/json" },
      }),
      server.call("POST", "/v2/secure-payments", {
        rawBody: "[1,2,3]",
        headers: { "content-type": "application/json" },
      }),
      server.call("POST", "/v2/secure-payments", {
        rawBody: '"just a string"',
        headers: { "content-type": "application/json" },
      }),
      server.call("POST", "/v2/secure-payments", {
        rawBody: "null",
        headers: { "content-type": "application/json" },
      }),
      server.call("GET", "/v1/currencies?network=base&network=mainnet"),
      server.call("GET", "/v1/currencies?id[]=1"),
      server.call("GET", `/v2/request/01${"f".repeat(64)}%00/pay`),
      server.call("GET", "/v2/request/%E0%A4%A/pay"),
      server.call("PATCH", "/v2/payouts/recurring/01JXYJKCAHGFTDR15F2D072ESG", {
        body: { action: "cancel", extra: { a: [1] } },
      }),
      server.call("POST", "/v2/payer", {
        rawBody: "{}",
        headers: { "content-type": "application/json; charset=latin-1" },
      }),
      // Instants the sandbox clock cannot show: a leap second, year 10000, an impossible date.
      server.call("POST", "/sandbox/clock", { body: { now: "2026-06-30T23:59:60Z" } }),
      server.call("POST", "/sandbox/clock", { body: { now: "10000-01-01T00:00:00Z" } }),
      server.call("POST", "/sandbox/clock", { body: { now: "2026-02-30T00:00:00Z" } }),
      server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 315_360_000 * 1000 } }),
      // Webhook targets on this machine or no one's, in every IPv4-in-IPv6 spelling.
      ...[
        "http://[::127.0.0.1]/hook",
        "http://[::ffff:0:127.0.0.1]/hook",
        "http://[64:ff9b::127.0.0.1]/hook",
        "http://[2002:7f00:1::]/hook",
        "http://224.0.0.1/hook",
        "http://255.255.255.255/hook",
      ].map((url) => server.call("POST", "/sandbox/webhooks/endpoints", { body: { url } })),
      server.call("HEAD", "/v1/currencies?firstOnly=maybe"),
    ];
    const answers = await Promise.all(attempts);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(answer.text).not.toMatch(/\bat \S+ \(|node_modules/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(server.loggedErrors).toEqual([]);
  });
});

describe("X-Request-Id", () => {
  it("echoes a sane incoming id on success and error alike", async () => {
    const ok = await server.call("GET", "/v1/currencies?network=base", {
      headers: { "x-request-id": "trace-42.a:b_c" },
    });
    expect(ok.headers.get("x-request-id")).toBe("trace-42.a:b_c");
    const error = await server.call("GET", "/nope", { headers: { "x-request-id": "trace-43" } });
    expect(error.headers.get("x-request-id")).toBe("trace-43");
    expect(error.body.requestId).toBe("trace-43");
  });

  it("replaces an insane incoming id with a fresh one", async () => {
    const answer = await server.call("GET", "/v1/currencies?network=base", {
      headers: { "x-request-id": "<script>alert(1)</script>" },
    });
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("generates a distinct id for each request without one", async () => {
    const [a, b] = await Promise.all([server.call("GET", "/nope"), server.call("GET", "/nope")]);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    expect(a.body.requestId).toBe(a.headers.get("x-request-id"));
  });
});

describe("pages outside the API", () => {
  it("serves the bundled spec and the reference", async () => {
    const spec = await server.call("GET", "/openapi.json", { auth: "none" });
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toBe("3.1.0");
    expect(Object.keys(spec.body.paths)).toContain("/sandbox/clock");
    const docs = await server.call("GET", "/docs", { auth: "none" });
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
    expect(docs.text).toContain("Payment Request Service API");
    expect(docs.headers.get("x-request-id")).not.toBeNull();
  });

  it("links to them from the root", async () => {
    const root = await server.call("GET", "/", { auth: "none" });
    expect(root.body).toMatchObject({
      api: server.url,
      openapi: `${server.url}/openapi.json`,
      docs: `${server.url}/docs`,
    });
  });
});
