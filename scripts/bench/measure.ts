import type { ChildServer } from "./child-server.ts";
import { type LoadRequest, type LoadResult, measureLoad, median, timeMany, timeRequest } from "./load.ts";

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

export interface WarmLatency {
  /** Each timed request's milliseconds, in the order sent. */
  timesMs: number[];
  medianMs: number;
}

/**
 * The latency of a warm server: `warm` requests sent and not timed, then `timed` ones timed, one
 * at a time, each on a connection of its own, as a new client sends it.
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

export interface CreationCost {
  /** Secure payments the full store was filled with, before its warm-up. */
  records: number;
  /** Creations sent, and timed, in each round to each store. */
  perRound: number;
  /** Creations sent to each store, not timed, before the first round: the fresh server's code is compiled by then. */
  warmUp: number;
  /** Each round's creations per second on the fresh store, which holds `warmUp` creations before the first. */
  freshPerSecond: number[];
  /** Each round's creations per second on the store filled with `records`. */
  fullPerSecond: number[];
  /** A creation's cost on the full store over its cost on the fresh one: the median of the rounds' ratios. */
  costRatio: number;
}

/** The median over the rounds of `fresh[round] / full[round]`: each round's two rates are taken moments apart. */
export function medianRoundRatio(fresh: number[], full: number[]): number {
  if (fresh.length !== full.length || fresh.length === 0) {
    throw new Error("each round needs one rate of each store");
  }
  return median(fresh.map((rate, round) => rate / (full[round] as number)));
}

/**
 * Creation rate on a fresh store against one that holds `records` secure payments, in interleaved
 * rounds on two servers: one server measured before and after filling it would compare a cold
 * process with a warm one, and two moments of the machine. Both get `warmUp` creations, not
 * timed, first: the fresh server's code is compiled by then, and the full one has done the garbage
 * collection its filling left.
 */
export async function measureCreationCost(
  servers: { fresh: ChildServer; full: ChildServer },
  request: LoadRequest,
  options: { records: number; rounds: number; perRound: number; warmUp: number; connections: number },
): Promise<CreationCost> {
  const send = async (server: ChildServer, count: number) =>
    count / (await timeMany(server.baseUrl, request, count, options.connections));
  await send(servers.full, options.records);
  await send(servers.fresh, options.warmUp);
  await send(servers.full, options.warmUp);
  const freshPerSecond: number[] = [];
  const fullPerSecond: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Alternating which store goes first, so that neither always runs right after the other.
    if (round % 2 === 0) {
      freshPerSecond.push(await send(servers.fresh, options.perRound));
      fullPerSecond.push(await send(servers.full, options.perRound));
    } else {
      fullPerSecond.push(await send(servers.full, options.perRound));
      freshPerSecond.push(await send(servers.fresh, options.perRound));
    }
  }
  return {
    records: options.records,
    perRound: options.perRound,
    warmUp: options.warmUp,
    freshPerSecond,
    fullPerSecond,
    costRatio: medianRoundRatio(freshPerSecond, fullPerSecond),
  };
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
