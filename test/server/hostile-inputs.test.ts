import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig } from "../../src/server/index.ts";
import { describeWithPostgres } from "../support/postgres.ts";
import { apiKey, problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";
import { startTestServerOnPostgres } from "./postgres-test-server.ts";

// Inputs that once reached a store or a handler they should not have: a NUL character, numbers
// beyond any bound, bodies over the limit or missing, bodies that never finish arriving.

/** Sends raw bytes on a new connection and reads what comes back until the server closes it. */
async function rawExchange(
  url: string,
  head: string,
  options: { body?: Buffer | string; keepOpen?: boolean } = {},
): Promise<{ text: string }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await once(socket, "connect");
  socket.write(head);
  if (options.body !== undefined) socket.write(options.body);
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  // The test's own time limit ends a server that never answers.
  await once(socket, "close");
  return { text };
}

/** The body of the first answer in `text`, by its Content-Length. */
function bodyOf(text: string): Record<string, unknown> {
  const start = text.indexOf("\r\n\r\n") + 4;
  const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, start))?.[1]);
  return JSON.parse(text.slice(start, start + length)) as Record<string, unknown>;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { ...createDefaultConfig(), requestTimeoutMs: 500 } });
});
afterAll(() => server.close());

describe("NUL characters", () => {
  it("refuses one in a body member, naming the member, before any store sees it", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: JSON.stringify({ requests: [{ ...usdcOnBase(), reference: "inv\u00001" }] }),
      headers: { "content-type": "application/json" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/reference", message: "must not contain the NUL character (U+0000)" },
    ]);
  });

  it("refuses one in a path or query parameter", async () => {
    const inPath = await server.call("GET", "/v2/payer/a%00b");
    expect(problemErrors(inPath, "/problems/validation-failed", 400)).toEqual([
      { path: "/path/clientUserId", message: 'must not contain the NUL character (U+0000), got "a\\u0000b"' },
    ]);
    const inQuery = await server.call("GET", "/v2/payments?reference=a%00b");
    expect(problemErrors(inQuery, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/reference", message: 'must not contain the NUL character (U+0000), got "a\\u0000b"' },
    ]);
  });

  it("takes the escape's text when it is only text (a backslash before u0000)", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      rawBody: `{"requests":[${JSON.stringify({ ...usdcOnBase(), reference: "x" }).replace('"x"', '"a\\\\u0000b"')}]}`,
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(201);
  });
});

describe("numbers in the query", () => {
  it("refuses numbers no bound can hold (1e309, Infinity, -1e309) instead of letting them past minimum and maximum", async () => {
    for (const [path, field] of [
      ["/v2/payments?offset=1e309", "/query/offset"],
      ["/v2/payments?limit=-1e309", "/query/limit"],
      ["/sandbox/webhooks/endpoints?limit=Infinity", "/query/limit"],
    ] as const) {
      const answer = await server.call("GET", path);
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: field, message: `must be a finite number, got "${path.split("=")[1]}"` },
      ]);
    }
  });

  it("still takes finite numbers written as exponents", async () => {
    const answer = await server.call("GET", "/v2/payments?limit=1e1&reference=inv-1");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ pagination: { limit: 10, offset: 0 } });
  });
});

describe("bodies", () => {
  it("refuses a required body that is empty or absent, whatever its Content-Type says", async () => {
    const created = await server.call("POST", "/v2/client-ids", {
      body: { label: "Shop", allowedDomains: ["https://shop.example.com"] },
    });
    expect(created.status).toBe(201);
    for (const headers of [{ "content-type": "application/json" }, {}]) {
      const answer = await server.call("PUT", `/v2/client-ids/${created.body.id}`, { rawBody: "", headers });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body", message: "is required: send a JSON body with Content-Type application/json" },
      ]);
    }
  });

  it("answers 413 from a declared length over the limit before any of the body arrives", async () => {
    const { host } = new URL(server.url);
    const { text } = await rawExchange(
      server.url,
      `POST /v2/secure-payments HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    // One answer: the request's timeout, when its body never comes, only closes the connection.
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(bodyOf(text)).toMatchObject({
      type: "/problems/payload-too-large",
      detail: "The body is 1073741824 bytes; the limit is 1048576 bytes (1 MiB).",
    });
  });

  it("answers 413 to a chunked body once its bytes pass the limit, without waiting for its end", async () => {
    const { host } = new URL(server.url);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const chunked = Buffer.concat(
      Array.from({ length: 5 }, () =>
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
      ),
    );
    // 1.25 MiB of chunks and no final chunk: the body never ends.
    const { text } = await rawExchange(
      server.url,
      `POST /v2/secure-payments HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      { body: chunked },
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    // One answer: the request's timeout, when its body never comes, only closes the connection.
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(bodyOf(text)).toMatchObject({ type: "/problems/payload-too-large" });
  });

  it("answers 408 in the problem shape to a body that stops arriving (requestTimeoutMs)", async () => {
    const { host } = new URL(server.url);
    const { text } = await rawExchange(
      server.url,
      `POST /v2/secure-payments HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"requests":`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text)).toMatchObject({ type: "/problems/request-timeout", status: 408 });
  });
});

describeWithPostgres("on the PostgreSQL store", () => {
  let onPostgres: TestServer;
  beforeAll(async () => {
    onPostgres = await startTestServerOnPostgres();
  });
  afterAll(() => onPostgres.close());

  it("answers a NUL character with the same 400 as the memory store, never a 500", async () => {
    const inBody = await onPostgres.call("POST", "/v2/secure-payments", {
      body: { requests: [{ ...usdcOnBase(), reference: "inv\u00001" }] },
    });
    expect(problemErrors(inBody, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/reference", message: "must not contain the NUL character (U+0000)" },
    ]);
    const inPath = await onPostgres.call("GET", "/v2/payer/a%00b");
    expect(inPath.status).toBe(400);
    expect(onPostgres.loggedErrors).toEqual([]);
  });
});
