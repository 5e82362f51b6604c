import { describe, expect, it } from "vitest";
import { createRateLimiter, rateLimitBlockMs } from "../../src/server/http/rate-limit.ts";
import { createDefaultConfig } from "../../src/server/index.ts";
import { problemErrors, startTestServer } from "./helpers.ts";

const path = "/v1/currencies?network=base";

describe("rate-limit emulation (--rate-limit, config rateLimit)", () => {
  it("answers 429 past the limit, blocks 5 minutes of the sandbox clock, then lets the client ID through again", async () => {
    const config = { ...createDefaultConfig(), clientIdRateLimitPerMinute: 3, rateLimit: true };
    const server = await startTestServer({ config });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++)
        statuses.push((await server.call("GET", path, { auth: "clientId" })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);

      const blocked = await server.call("GET", path, { auth: "clientId" });
      problemErrors(blocked, "/problems/rate-limited", 429);
      expect(blocked.headers.get("retry-after")).toBe("300");
      expect(blocked.headers.get("ratelimit-limit")).toBe("3");
      expect(blocked.headers.get("ratelimit-remaining")).toBe("0");
      expect(blocked.headers.get("ratelimit-reset")).toBe("300");
      expect(blocked.body.detail).toBe(
        "This client ID made more than 3 requests in a minute from this address, which is blocked for 300 seconds more; retry then.",
      );
      // API keys are not limited.
      expect((await server.call("GET", path)).status).toBe(200);

      // A new minute does not end the block: the 5 minutes do.
      await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 120 } });
      const still = await server.call("GET", path, { auth: "clientId" });
      expect(still.status).toBe(429);
      expect(still.headers.get("retry-after")).toBe("180");

      await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 180 } });
      const lifted = await server.call("GET", path, { auth: "clientId" });
      expect(lifted.status).toBe(200);
      expect(lifted.headers.get("ratelimit-remaining")).toBe("2");
    } finally {
      await server.close();
    }
  });
});

describe("createRateLimiter with a block", () => {
  it("blocks the key that went over the limit only, and counts no blocked request", () => {
    const limiter = createRateLimiter({ limit: 2, blockMs: rateLimitBlockMs });
    const start = Date.parse("2026-04-12T10:00:00Z");
    const allowed = (key: string, atMs: number) => limiter.take(key, atMs).allowed;
    expect([1, 2, 3].map((n) => allowed("cid 10.0.0.1", start + n))).toEqual([true, true, false]);
    expect(allowed("cid 10.0.0.2", start + 4)).toBe(true);
    expect(limiter.take("cid 10.0.0.1", start + 60_000)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetSeconds: 241,
    });
    expect(allowed("cid 10.0.0.1", start + 3 + rateLimitBlockMs)).toBe(true);
    expect(limiter.take("cid 10.0.0.1", start + 4 + rateLimitBlockMs).remaining).toBe(0);
  });
});
