import { describe, expect, it } from "vitest";
import { medianRatio, type ThroughputSample } from "../../scripts/bench/measure.ts";

const sample = (target: string, round: number, requestsPerSecond: number): ThroughputSample => ({
  target,
  operation: "GET /x",
  round,
  result: { requestsPerSecond, non2xx: 0, latencyP50Ms: 1, latencyP99Ms: 2 },
});

describe("medianRatio", () => {
  it("takes the median of each round's ratio, so that a machine slowing down between rounds cancels out", () => {
    // The machine is twice as fast in round 2: both targets are, and their ratio stays about 0.5.
    const samples = [
      sample("server", 1, 100),
      sample("express", 1, 200),
      sample("server", 2, 210),
      sample("express", 2, 400),
      sample("server", 3, 140),
      sample("express", 3, 300),
    ];
    // The ratio of the medians would mix rounds: 140 / 300.
    expect(medianRatio(samples, "server", "express", "GET /x")).toBe(0.5);
  });
});
