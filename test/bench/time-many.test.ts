import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { timeMany } from "../../scripts/bench/load.ts";

let server: Server | undefined;

/** A server that answers `statusOf(n)` to its n-th request (from 1), and counts what it received. */
async function countingServer(statusOf: (received: number) => number) {
  const seen = { requests: 0, bodies: [] as string[], open: 0, mostOpen: 0 };
  server = createServer((req, res) => {
    const received = ++seen.requests;
    seen.open++;
    seen.mostOpen = Math.max(seen.mostOpen, seen.open);
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      seen.bodies.push(body);
      // Answered a moment later, so that requests sent side by side are in flight together.
      setTimeout(() => {
        seen.open--;
        res.writeHead(statusOf(received), { "content-type": "application/json" }).end("{}");
      }, 2);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

const request = {
  method: "POST" as const,
  path: "/v2/secure-payments",
  headers: { "content-type": "application/json" },
  body: '{"requests":[]}',
};

describe("timeMany", () => {
  it("sends exactly the number of requests asked for, no more than `connections` at a time, and times them", async () => {
    const { baseUrl, seen } = await countingServer(() => 201);
    const seconds = await timeMany(baseUrl, request, 40, 4);
    expect(seen.requests).toBe(40);
    expect(seen.mostOpen).toBe(4);
    expect(new Set(seen.bodies)).toEqual(new Set(['{"requests":[]}']));
    // Ten rounds of four, each answered at least 2 ms after it arrived.
    expect(seconds).toBeGreaterThanOrEqual(0.02);
  });

  it("fails at the first answer that is not 2xx and sends nothing after it", async () => {
    const { baseUrl, seen } = await countingServer((received) => (received === 5 ? 500 : 201));
    await expect(timeMany(baseUrl, request, 1_000, 2)).rejects.toThrow(
      "POST /v2/secure-payments answered 500",
    );
    // The fifth answer stops both senders: the other one's request in flight is the last.
    expect(seen.requests).toBeLessThanOrEqual(6);
  });
});
