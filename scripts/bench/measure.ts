import type { ChildServer } from "./child-server.ts";
import { type LoadRequest, type LoadResult, measureLoad, median, sendMany, timeRequest } from "./load.ts";

export interface ThroughputSample {
  target: string;
  operation: string;
  round: number;
  result: LoadResult;
}

/**
 * Interleaved rounds: in each round every operation is sent to every target in turn, so that a
 * slow moment of the machine falls on all targets alike. The medians are compared.
 */
export async function measureThroughput(
  targets: Record<string, ChildServer>,
  operations: Record<string, LoadRequest>,
  options: { rounds: number; seconds: number; connections: number },
): Promise<ThroughputSample[]> {
  const samples: ThroughputSample[] = [];
  // One second of each operation on each target first: JIT and caches warm, not measured.
  for (const request of Object.values(operations)) {
    for (const target of Object.values(targets)) {
      await measureLoad(target.baseUrl, request, { seconds: 1, connections: options.connections });
    }
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const [operation, request] of Object.entries(operations)) {
      for (const [target, server] of Object.entries(targets)) {
        const result = await measureLoad(server.baseUrl, request, options);
        if (result.non2xx > 0) throw new Error(`${target} answered ${result.non2xx} non-2xx to ${operation}`);
        samples.push({ target, operation, round, result });
        process.stderr.write(
          `  round ${round} ${operation} ${target}: ${Math.round(result.requestsPerSecond)} req/s\n`,
        );
      }
    }
  }
  return samples;
}

/**
 * The median over the rounds of `target`'s rate divided by `baseline`'s: each round's two runs are
 * seconds apart, so a change of the machine's speed between rounds cancels out of the ratio.
 */
export function medianRatio(
  samples: ThroughputSample[],
  target: string,
  baseline: string,
  operation: string,
): number {
  const rateOf = (name: string, round: number) =>
    samples.find(
      (sample) => sample.target === name && sample.operation === operation && sample.round === round,
    )?.result.requestsPerSecond;
  const rounds = [...new Set(samples.map((sample) => sample.round))];
  return median(
    rounds.map((round) => (rateOf(target, round) ?? Number.NaN) / (rateOf(baseline, round) ?? Number.NaN)),
  );
}

export function medianRate(samples: ThroughputSample[], target: string, operation: string): number {
  return median(
    samples
      .filter((sample) => sample.target === target && sample.operation === operation)
      .map((sample) => sample.result.requestsPerSecond),
  );
}

export interface FirstRequest {
  firstMs: number;
  medianMs: number;
}

/**
 * The first request of an operation on a fresh server, against the median of the next `repeats`.
 * Each one opens a connection of its own, as the first must: a new client's first request pays
 * for its connection, and the ones it is compared with pay for theirs too.
 */
export async function measureFirstRequest(
  server: ChildServer,
  request: LoadRequest,
  repeats: number,
): Promise<FirstRequest> {
  const firstMs = await timeRequest(server.baseUrl, request, { newConnection: true });
  const later: number[] = [];
  for (let index = 0; index < repeats; index++) {
    later.push(await timeRequest(server.baseUrl, request, { newConnection: true }));
  }
  return { firstMs, medianMs: median(later) };
}

export interface WarmLatency {
  /** Each timed request's milliseconds, in the order sent. */
  timesMs: number[];
  medianMs: number;
}

/**
 * The latency of a warm server: `warm` requests sent and not timed, then `timed` ones timed, one
 * at a time, each on a connection of its own as in measureFirstRequest.
 */
export async function measureWarmLatency(
  server: ChildServer,
  request: LoadRequest,
  counts: { warm: number; timed: number },
): Promise<WarmLatency> {
  for (let index = 0; index < counts.warm; index++) {
    await timeRequest(server.baseUrl, request, { newConnection: true });
  }
  const timesMs: number[] = [];
  for (let index = 0; index < counts.timed; index++) {
    timesMs.push(await timeRequest(server.baseUrl, request, { newConnection: true }));
  }
  return { timesMs, medianMs: median(timesMs) };
}

export interface CreationRate {
  emptyPerSecond: number;
  fullPerSecond: number;
  records: number;
}

/** Creation rate on an empty store and once `records` secure payments exist. */
export async function measureCreationRate(
  server: ChildServer,
  request: LoadRequest,
  records: number,
  options: { seconds: number; connections: number },
): Promise<CreationRate> {
  const empty = await measureLoad(server.baseUrl, request, options);
  const made = Math.round(empty.requestsPerSecond * options.seconds);
  const failures = await sendMany(server.baseUrl, request, Math.max(0, records - made), options.connections);
  if (failures > 0) throw new Error(`${failures} creations failed while filling the store`);
  const full = await measureLoad(server.baseUrl, request, options);
  return { emptyPerSecond: empty.requestsPerSecond, fullPerSecond: full.requestsPerSecond, records };
}

export type HostileBodyTimes = Record<string, number[]>;

/** Milliseconds to answer each hostile body, `repeats` times each: the server must answer them fast. */
export async function measureHostileBodies(
  server: ChildServer,
  bodies: Record<string, LoadRequest & { expectStatus: number }>,
  repeats: number,
): Promise<HostileBodyTimes> {
  const times: HostileBodyTimes = {};
  for (const [name, request] of Object.entries(bodies)) {
    times[name] = [];
    for (let index = 0; index < repeats; index++) {
      times[name].push(await timeRequest(server.baseUrl, request, { expectStatus: request.expectStatus }));
    }
  }
  return times;
}
