import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NoAnswerError, sendRequest } from "../../src/contract/http-exchange.ts";
import type { ContractRequest } from "../../src/contract/valid-inputs.ts";
import type { SpecOperation } from "../../src/spec/operations.ts";
import { findFreePort } from "../support/prism.ts";

// How the contract suite's requests go out and its answers come back, against a server that
// records what it received and answers as each path says.

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/base/, "");
  received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
  if (path === "/gzipped") {
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    res.end(gzipSync('{"zipped":"é"}'));
  } else if (path === "/moved") {
    res.writeHead(302, { location: "/elsewhere" }).end();
  } else if (path === "/silent") {
    // Never answers: the time limit must end the request.
  } else if (path === "/stalled") {
    // Starts its answer and never ends it.
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"partial":');
  } else {
    res.writeHead(201, [
      ["Content-Type", "application/json"],
      ["X-Request-Id", "req-7"],
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
      ["Vary", "Origin"],
      ["Vary", "Accept"],
    ]);
    res.end('{"ok":true}');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => answer(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

const operation = (method: string, key: string) => ({ method, key, operationId: "op" }) as SpecOperation;
const noInputs: ContractRequest = { path: {}, query: {}, headers: {} } as ContractRequest;

describe("sendRequest", () => {
  it("fills the path, appends the query, sends the body with its length and reads status, headers and text", async () => {
    received.length = 0;
    const request = {
      path: { id: "a b/c" },
      query: { network: "base", symbol: "USDC" },
      headers: { origin: "https://shop.example" },
      body: { contentType: "application/json", text: '{"amount":"1.5","note":"ü"}' },
    } as ContractRequest;
    const exchange = await sendRequest(
      baseUrl,
      operation("DELETE", "/v2/items/{id}"),
      request,
      { "x-api-key": "k1" },
      5_000,
    );
    expect(exchange.status).toBe(201);
    expect(exchange.text).toBe('{"ok":true}');
    expect(exchange.headers.get("content-type")).toBe("application/json");
    expect(exchange.headers.get("x-request-id")).toBe("req-7");
    expect(exchange.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    // Repeated headers read as one, by any case of their name, as fetch's Headers read them.
    expect(exchange.headers.get("VARY")).toBe("Origin, Accept");
    expect(exchange.headers.get("x-absent")).toBeNull();
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect(sent?.method).toBe("DELETE");
    expect(sent?.url).toBe("/base/v2/items/a%20b%2Fc?network=base&symbol=USDC");
    expect(sent?.body).toBe('{"amount":"1.5","note":"ü"}');
    expect(sent?.headers).toMatchObject({
      accept: "application/json, application/problem+json",
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength('{"amount":"1.5","note":"ü"}')),
      origin: "https://shop.example",
      "x-api-key": "k1",
    });
  });

  it("sends no body and no content type without one", async () => {
    received.length = 0;
    await sendRequest(baseUrl, operation("GET", "/v1/currencies"), noInputs, {}, 5_000);
    expect(received[0]?.body).toBe("");
    expect(received[0]?.headers["content-type"]).toBeUndefined();
    expect(received[0]?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("decodes a compressed answer as UTF-8", async () => {
    const exchange = await sendRequest(baseUrl, operation("GET", "/gzipped"), noInputs, {}, 5_000);
    expect(exchange.text).toBe('{"zipped":"é"}');
  });

  it("answers a redirect with the redirect itself, not where it points", async () => {
    const exchange = await sendRequest(baseUrl, operation("GET", "/moved"), noInputs, {}, 5_000);
    expect(exchange.status).toBe(302);
    expect(exchange.headers.get("location")).toBe("/elsewhere");
  });

  it("gives up after the time limit, naming it", async () => {
    const sent = sendRequest(baseUrl, operation("GET", "/silent"), noInputs, {}, 50);
    await expect(sent).rejects.toThrow(NoAnswerError);
    await expect(sent).rejects.toThrow("no answer from GET /base/silent: no answer within 0.05 s");
  });

  it("gives up on an answer that stops midway, naming the time limit", async () => {
    const sent = sendRequest(baseUrl, operation("GET", "/stalled"), noInputs, {}, 100);
    await expect(sent).rejects.toThrow("no answer from GET /base/stalled: no answer within 0.1 s");
  });

  it("names a refused connection", async () => {
    const port = await findFreePort();
    const sent = sendRequest(`http://127.0.0.1:${port}`, operation("POST", "/v2/x"), noInputs, {}, 5_000);
    await expect(sent).rejects.toThrow("no answer from POST /v2/x: connection refused (ECONNREFUSED)");
  });
});
