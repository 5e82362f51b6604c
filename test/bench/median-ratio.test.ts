import { describe, expect, it } from "vitest";
import { medianRatio, medianRoundRatio, type ThroughputSample } from "../../scripts/bench/measure.ts";

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

describe("medianRoundRatio", () => {
  it("divides each round's fresh rate by the same round's full rate and takes the median", () => {
    // Round 2 came at a slow moment for both stores; the rounds' ratios are 1.25, 1.2 and 0.8.
    expect(medianRoundRatio([2500, 1200, 2400], [2000, 1000, 3000])).toBe(1.2);
  });

  it("refuses rounds without a rate of each store", () => {
    expect(() => medianRoundRatio([2500, 1200], [2000])).toThrow("each round needs one rate of each store");
    expect(() => medianRoundRatio([], [])).toThrow("each round needs one rate of each store");
  });
});
