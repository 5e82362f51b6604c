import { describe, expect, it } from "vitest";
import { backoffDelay, retryAfterMs } from "../../src/client/retrying-fetch.ts";
import { createPayreqClient, InvalidValueError, type RetryOptions, withRetries } from "../../src/index.ts";
import {
  baseUrl,
  jsonResponse,
  problemResponse,
  type StubAnswer,
  specExample,
  stubFetch,
} from "./fetch-stub.ts";

const rateLimited = (headers: Record<string, string> = {}) =>
  problemResponse(429, specExample("ProblemRateLimited"), headers);
const currencies = () => jsonResponse(200, specExample("CurrencyListUsdcBase"));
const networkError = () => new TypeError("fetch failed");

/** A client whose retries sleep instantly and record each wait. */
function retryingClient(answers: StubAnswer[], retry: RetryOptions = {}) {
  const stub = stubFetch(...answers);
  const delays: number[] = [];
  const client = createPayreqClient({
    baseUrl,
    apiKey: "sk_test_123",
    fetch: stub.fetch,
    retry: {
      baseDelayMs: 100,
      maxDelayMs: 5_000,
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
      },
      ...retry,
    },
  });
  return { client, stub, delays };
}

describe("retries", () => {
  it("are off by default: a 429 comes back at once", async () => {
    const stub = stubFetch(rateLimited({ "retry-after": "1" }));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    const { error, response } = await client.GET("/v1/currencies");
    expect(response.status).toBe(429);
    expect(error && "type" in error ? error.type : undefined).toBe("/problems/rate-limited");
    expect(stub.sent).toHaveLength(1);
  });

  it("wait the Retry-After seconds of a 429, then return the success", async () => {
    const { client, stub, delays } = retryingClient([
      rateLimited({ "retry-after": "3" }),
      rateLimited({ "retry-after": "2" }),
      currencies(),
    ]);
    const { data } = await client.GET("/v1/currencies");
    expect(data).toEqual(specExample("CurrencyListUsdcBase"));
    expect(delays).toEqual([3_000, 2_000]);
    expect(stub.sent).toHaveLength(3);
    expect(stub.sent.map((request) => request.headers["x-api-key"])).toEqual([
      "sk_test_123",
      "sk_test_123",
      "sk_test_123",
    ]);
  });

  it("read a Retry-After HTTP date against the clock", async () => {
    const { client, delays } = retryingClient(
      [rateLimited({ "retry-after": "Sun, 12 Apr 2026 10:00:05 GMT" }), currencies()],
      { now: () => Date.parse("2026-04-12T10:00:00Z") },
    );
    await client.GET("/v1/currencies");
    expect(delays).toEqual([5_000]);
  });

  it("back off exponentially with jitter when there is no Retry-After, and stop after `retries`", async () => {
    const { client, stub, delays } = retryingClient(
      [rateLimited(), rateLimited(), rateLimited(), rateLimited({ "x-request-id": "last" })],
      { retries: 3 },
    );
    const { error, response } = await client.GET("/v1/currencies");
    expect(delays).toEqual([75, 150, 300]);
    expect(stub.sent).toHaveLength(4);
    expect(response.status).toBe(429);
    expect(response.headers.get("x-request-id")).toBe("last");
    expect(error && "title" in error ? error.title : undefined).toBe("Too many requests");
  });

  it("give up at once when Retry-After asks for longer than maxDelayMs", async () => {
    const { client, stub, delays } = retryingClient([rateLimited({ "retry-after": "60" })], {
      maxDelayMs: 30_000,
    });
    const { response } = await client.GET("/v1/currencies");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(delays).toEqual([]);
    expect(stub.sent).toHaveLength(1);
  });

  it("retry network errors of a GET", async () => {
    const { client, stub, delays } = retryingClient([networkError(), networkError(), currencies()]);
    const { data } = await client.GET("/v1/currencies");
    expect(data).toEqual(specExample("CurrencyListUsdcBase"));
    expect(delays).toEqual([75, 150]);
    expect(stub.sent).toHaveLength(3);
  });

  it("rethrow the last network error once the retries are spent", async () => {
    const last = new TypeError("fetch failed: ECONNRESET");
    const { client, stub } = retryingClient([networkError(), networkError(), last], { retries: 2 });
    await expect(client.GET("/v1/currencies")).rejects.toBe(last);
    expect(stub.sent).toHaveLength(3);
  });

  it("never retry a POST, neither on 429 nor on a network error", async () => {
    const body = { requests: [] };
    const limited = retryingClient([rateLimited({ "retry-after": "1" }), currencies()]);
    const { response } = await limited.client.POST("/v2/secure-payments", { body });
    expect(response.status).toBe(429);
    expect(limited.stub.sent).toHaveLength(1);

    const failing = retryingClient([networkError(), currencies()]);
    await expect(failing.client.POST("/v2/secure-payments", { body })).rejects.toThrow("fetch failed");
    expect(failing.stub.sent).toHaveLength(1);
    expect(failing.delays).toEqual([]);
  });

  it("never retry a PATCH", async () => {
    const { client, stub } = retryingClient([rateLimited({ "retry-after": "1" })]);
    const { response } = await client.PATCH("/v2/payouts/recurring/{id}", {
      params: { path: { id: "01JXYJKCAHGFTDR15F2D072ESG" } },
      body: { action: "cancel" },
    });
    expect(response.status).toBe(429);
    expect(stub.sent).toHaveLength(1);
  });

  it("send the body again on each attempt of a PUT", async () => {
    const stub = stubFetch(
      rateLimited({ "retry-after": "0" }),
      networkError(),
      new Response(null, { status: 204 }),
    );
    const delays: number[] = [];
    const fetch = withRetries(stub.fetch, { random: () => 0, sleep: async (ms) => void delays.push(ms) });
    const response = await fetch(new Request(`${baseUrl}/things/1`, { method: "PUT", body: '{"name":"a"}' }));
    expect(response.status).toBe(204);
    expect(stub.sent.map((request) => `${request.method} ${request.body}`)).toEqual([
      'PUT {"name":"a"}',
      'PUT {"name":"a"}',
      'PUT {"name":"a"}',
    ]);
    expect(delays).toEqual([0, 250]);
  });

  it("retry DELETE, HEAD and OPTIONS", async () => {
    for (const method of ["DELETE", "HEAD", "OPTIONS"]) {
      const stub = stubFetch(rateLimited({ "retry-after": "0" }), new Response(null, { status: 204 }));
      const fetch = withRetries(stub.fetch, { sleep: async () => {} });
      const response = await fetch(new Request(`${baseUrl}/things/1`, { method }));
      expect([method, response.status, stub.sent.length]).toEqual([method, 204, 2]);
    }
  });

  it("do not retry a request its caller aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = new DOMException("This operation was aborted", "AbortError");
    const stub = stubFetch(aborted, currencies());
    const fetch = withRetries(stub.fetch, { sleep: async () => {} });
    await expect(fetch(new Request(`${baseUrl}/v1/currencies`, { signal: controller.signal }))).rejects.toBe(
      aborted,
    );
    expect(stub.sent).toHaveLength(1);
  });

  it("stop waiting when the request is aborted during the backoff", async () => {
    const controller = new AbortController();
    const stub = stubFetch(rateLimited({ "retry-after": "5" }), currencies());
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    // The sleep never ends by itself: only the signal withRetries passes can end it.
    const fetch = withRetries(stub.fetch, {
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          sleeping();
        }),
    });
    const result = fetch(new Request(`${baseUrl}/v1/currencies`, { signal: controller.signal }));
    await asleep;
    expect(stub.sent).toHaveLength(1);
    controller.abort(new Error("caller gave up"));
    await expect(result).rejects.toThrow("caller gave up");
    expect(stub.sent).toHaveLength(1);
  });

  it("stop the default sleep when the request is aborted", async () => {
    const controller = new AbortController();
    const stub = stubFetch(() => {
      controller.abort(new Error("caller gave up"));
      return rateLimited({ "retry-after": "5" });
    }, currencies());
    const fetch = withRetries(stub.fetch);
    await expect(
      fetch(new Request(`${baseUrl}/v1/currencies`, { signal: controller.signal })),
    ).rejects.toThrow("caller gave up");
    expect(stub.sent).toHaveLength(1);
  });

  it("wait for real with the default sleep", async () => {
    const stub = stubFetch(rateLimited({ "retry-after": "0" }), currencies());
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch, retry: true });
    const { data } = await client.GET("/v1/currencies");
    expect(data).toEqual(specExample("CurrencyListUsdcBase"));
    expect(stub.sent).toHaveLength(2);
  });
});

describe("backoffDelay", () => {
  it("doubles from baseDelayMs, keeps half and jitters the other half, and never exceeds maxDelayMs", () => {
    const settings = (random: number) => ({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => random });
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, settings(0)))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, settings(0.999999)))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-04-12T10:00:00Z");
  it.each([
    ["120", 120_000],
    [" 7 ", 7_000],
    ["0", 0],
    ["Sun, 12 Apr 2026 10:00:30 GMT", 30_000],
    ["Sunday, 12-Apr-26 10:00:30 GMT", 30_000],
    ["Sun, 12 Apr 2026 09:59:00 GMT", 0],
  ])("reads %j as %d ms", (value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });

  it.each([[null], [""], ["1.5"], ["-5"], ["soon"], ["Someday"]])("ignores %j", (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});

describe("retry options", () => {
  it.each([
    [{ retries: -1 }, "Invalid retry.retries: expected a non-negative integer, got -1."],
    [{ retries: 1.5 }, "Invalid retry.retries: expected a non-negative integer, got 1.5."],
    [
      { baseDelayMs: Number.NaN },
      "Invalid retry.baseDelayMs: expected a non-negative number of milliseconds, got NaN.",
    ],
    [
      { maxDelayMs: 10 },
      "Invalid retry.maxDelayMs: expected a number of milliseconds >= baseDelayMs (250), got 10.",
    ],
  ])("rejects %j", (retry, message) => {
    const create = () => createPayreqClient({ baseUrl, apiKey: "k", fetch: stubFetch().fetch, retry });
    expect(create).toThrow(InvalidValueError);
    expect(create).toThrow(message);
  });
});
