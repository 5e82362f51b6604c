import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeFetchFailure } from "../../src/net/describe-fetch-failure.ts";
import { findFreePort } from "../support/prism.ts";

/** What a fetch threw, for describeFetchFailure to name. */
async function fetchFailure(url: string, timeoutMs: number): Promise<unknown> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return error;
  }
  throw new Error(`${url} answered`);
}

describe("describeFetchFailure", () => {
  // Takes every request and never answers.
  let silent: Server;
  beforeAll(async () => {
    silent = createServer(() => {});
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
  });
  afterAll(async () => {
    silent.closeAllConnections();
    silent.close();
    await once(silent, "close");
  });

  it("names the time limit when no answer arrived within it", async () => {
    const { port } = silent.address() as AddressInfo;
    const error = await fetchFailure(`http://127.0.0.1:${port}/`, 50);
    expect(describeFetchFailure(error, 50)).toBe("no answer within 0.05 s");
  });

  it("names the network error behind fetch's own `fetch failed`", async () => {
    const port = await findFreePort();
    const error = await fetchFailure(`http://127.0.0.1:${port}/`, 5_000);
    expect((error as Error).message).toBe("fetch failed");
    expect(describeFetchFailure(error, 5_000)).toBe("connection refused (ECONNREFUSED)");
  });
});
