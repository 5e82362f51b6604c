import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  firstCalledOperations,
  type WarmUpPlan,
  warmUpHeader,
  warmUpOperations,
  warmUpOrder,
} from "../../src/server/warm-up.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { problemErrors, startTestServer, type TestServer } from "./helpers.ts";

describe("warmUpOrder", () => {
  const { first, later } = warmUpOrder(readPathOperations());

  it("compiles the first-called operations before answering, then the service's, then the sandbox's", () => {
    // In the order listed: the cheap currency list, the path every request shares, ends warmest.
    expect(first.map((operation) => operation.operationId)).toEqual([
      "createSecurePayment",
      "createBatchPayout",
      "listCurrencies",
    ]);
    expect(Object.keys(firstCalledOperations)).toEqual(first.map((operation) => operation.operationId));
    const sandbox = later.map((operation) => operation.key.startsWith("/sandbox/"));
    expect(sandbox.indexOf(true)).toBeGreaterThan(0);
    expect(sandbox.slice(sandbox.indexOf(true)).every(Boolean)).toBe(true);
    expect(first.length + later.length).toBe(readPathOperations().length);
  });
});

describe("a server that warms up", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ warmUp: true });
  });
  afterAll(() => server.close());

  it("validates a request that only guesses the warm-up token like any other", async () => {
    const headers = { [warmUpHeader]: "a-guess" };
    const valid = await server.call("GET", "/v1/currencies?network=sepolia", { headers });
    expect(valid.status).toBe(200);
    const invalid = await server.call("GET", "/v1/currencies?network=sepolia&warmUp=1", { headers });
    expect(problemErrors(invalid, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/warmUp", message: `Unknown query parameter 'warmUp', got "1"` },
    ]);
    expect(server.loggedErrors).toEqual([]);
  });
});

/** A request as the warm-up sent it, and whether it came on a new connection. */
interface Received {
  line: string;
  body: string;
  newConnection: boolean;
}

/**
 * Warms `operationId` up against a server of the test's own, which answers 200 to anything, in
 * the rounds of `plan`; answers what it received.
 */
async function warmUpAgainstSink(operationId: string, plan: WarmUpPlan): Promise<Received[]> {
  const received: Received[] = [];
  const sink = createHttpServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const socket = req.socket as typeof req.socket & { answered?: boolean };
      received.push({
        line: `${req.method} ${req.url} ${req.headers[warmUpHeader]}`,
        body,
        newConnection: !socket.answered,
      });
      socket.answered = true;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  sink.listen(0, "127.0.0.1");
  await once(sink, "listening");
  try {
    const { port } = sink.address() as AddressInfo;
    const operation = readPathOperations().find((candidate) => candidate.operationId === operationId);
    if (!operation) throw new Error(`the spec has no ${operationId}`);
    await warmUpOperations(
      { baseUrl: `http://127.0.0.1:${port}`, credential: { header: "x-api-key", value: "k" }, token: "t" },
      [operation],
      undefined,
      { plans: { [operationId]: plan }, spec: loadBundledSpec() },
    );
    return received;
  } finally {
    sink.close();
  }
}

describe("warmUpOperations", () => {
  it("sends each example call of an operation as many rounds as asked, each on a connection of its own", async () => {
    const received = await warmUpAgainstSink("listCurrencies", { rounds: 3 });
    // The plain call and the one with every query example, three rounds of both.
    expect(received).toHaveLength(6);
    expect(new Set(received.map((request) => request.line)).size).toBe(2);
    expect(received.every(({ line }) => line.startsWith("GET /v1/currencies") && line.endsWith(" t"))).toBe(
      true,
    );
    expect(received.every((request) => request.newConnection)).toBe(true);
  });

  const itemCounts = (received: Received[]) =>
    received.map(({ body }) => (JSON.parse(body) as { requests: unknown[] }).requests.length);

  it("sends the last round's bodies filled to the limits of their arrays", async () => {
    expect(itemCounts(await warmUpAgainstSink("createBatchPayout", { rounds: 2 }))).toEqual([2, 100]);
  });

  it("sends as many of the last rounds with full bodies as the plan asks", async () => {
    expect(
      itemCounts(await warmUpAgainstSink("createBatchPayout", { rounds: 3, fullBodyRounds: 2 })),
    ).toEqual([2, 100, 100]);
  });
});
