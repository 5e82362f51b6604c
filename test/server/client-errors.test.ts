import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors } from "../../src/server/http/client-errors.ts";
import { schemaErrors, startTestServer, type TestServer } from "./helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface RawAnswer {
  statusLine: string;
  headers: Map<string, string>;
  body: Record<string, unknown>;
}

/** Sends `text` as it is over a new connection and reads everything until the server closes it. */
async function sendRaw(port: number, text: string): Promise<RawAnswer> {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => {});
  await once(socket, "connect");
  socket.write(text);
  await once(socket, "close");
  const answer = Buffer.concat(chunks).toString("utf8");
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 2)]),
  );
  return { statusLine, headers, body: JSON.parse(body) };
}

function expectProblem(answer: RawAnswer, status: number, type: string, title: string, detail: string): void {
  expect(answer.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  expect(answer.headers.get("connection")).toBe("close");
  const requestId = answer.headers.get("x-request-id");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.body).toEqual({
    type,
    title,
    status,
    detail,
    statusCode: status,
    error: answer.statusLine.replace(/^HTTP\/1\.1 \d{3} /, ""),
    message: detail,
    requestId,
  });
  expect(schemaErrors("Problem", answer.body)).toBe("");
}

describe("requests node:http refuses before any route", () => {
  it("answers headers over 16 KiB with a 431 Problem and closes the connection", async () => {
    const answer = await sendRaw(
      server.running.port,
      `GET /v1/currencies?network=base HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expectProblem(
      answer,
      431,
      "/problems/headers-too-large",
      "Request headers too large",
      "The request line and headers together are larger than 16 KiB; send long values in the body.",
    );
  });

  it("answers a request that is not HTTP with a 400 Problem and closes the connection", async () => {
    const answer = await sendRaw(server.running.port, "HELLO THERE\r\n\r\n");
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expectProblem(
      answer,
      400,
      "/problems/malformed-request",
      "Malformed request",
      "The request is not valid HTTP/1.1.",
    );
  });

  it("still answers the next connection as usual", async () => {
    await sendRaw(server.running.port, "HELLO THERE\r\n\r\n");
    const answer = await server.call("GET", "/v1/currencies?network=base");
    expect(answer.status).toBe(200);
  });
});

describe("answerClientErrors", () => {
  it("answers a request whose headers do not arrive in time with a 408 Problem", async () => {
    // node:http's own timeouts, made short: the server checks its connections every 50 ms.
    const slow = createHttpServer({
      headersTimeout: 200,
      requestTimeout: 200,
      connectionsCheckingInterval: 50,
    });
    answerClientErrors(slow);
    slow.listen(0, "127.0.0.1");
    await once(slow, "listening");
    try {
      const answer = await sendRaw((slow.address() as AddressInfo).port, "GET / HTTP/1.1\r\nHost: x\r\n");
      expect(answer.statusLine).toBe("HTTP/1.1 408 Request Timeout");
      expectProblem(
        answer,
        408,
        "/problems/request-timeout",
        "Request timeout",
        "The request did not arrive in full in time.",
      );
    } finally {
      slow.close();
    }
  });
});
