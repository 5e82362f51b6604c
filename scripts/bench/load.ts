import autocannon from "autocannon";
import { requestText } from "../../src/net/http-request.ts";

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Answers that were not 2xx: a benchmark of errors is no benchmark. */
  non2xx: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

/** Sends `request` over `connections` keep-alive connections for `seconds` and reports the throughput. */
export async function measureLoad(
  baseUrl: string,
  request: LoadRequest,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl + request.path,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: options.connections,
    duration: options.seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    non2xx: result.non2xx + result.errors,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
  };
}

/**
 * Seconds that `count` requests take, sent `connections` at a time over kept-alive connections.
 * Timed here rather than by autocannon, which ends a run of a set number of requests at the next
 * of its one-second ticks. Throws at the first failure or answer that is not 2xx, and sends no more.
 */
export async function timeMany(
  baseUrl: string,
  request: LoadRequest,
  count: number,
  connections: number,
): Promise<number> {
  let sent = 0;
  const url = new URL(baseUrl + request.path);
  const sendInTurn = async () => {
    try {
      while (sent < count) {
        sent++;
        const answer = await requestText(url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          timeoutMs: 30_000,
        });
        if (answer.status < 200 || answer.status > 299) {
          throw new Error(`${request.method} ${request.path} answered ${answer.status}`);
        }
      }
    } catch (error) {
      sent = count; // the other senders stop too
      throw error;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, sendInTurn));
  return (performance.now() - started) / 1000;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Milliseconds one request takes, answered in full with a 2xx (or with `expectStatus`). With
 * `newConnection`, the request asks for its connection to close after it, so that the next one
 * opens its own.
 */
export async function timeRequest(
  baseUrl: string,
  request: LoadRequest,
  options: { expectStatus?: number; newConnection?: boolean } = {},
): Promise<number> {
  const started = performance.now();
  const answer = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: options.newConnection ? { ...request.headers, connection: "close" } : request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  await answer.arrayBuffer();
  const expected = options.expectStatus === undefined ? answer.ok : answer.status === options.expectStatus;
  if (!expected) throw new Error(`${request.method} ${request.path} answered ${answer.status}`);
  return performance.now() - started;
}
