import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planContractChecks } from "../../src/contract/run-suite.ts";
import type { ContractTarget } from "../../src/contract/target.ts";
import {
  createDefaultConfig,
  createServer,
  type RunningServer,
  sampleCredentials,
} from "../../src/server/index.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { describeContractSuite } from "./describe-contract-suite.ts";

// The contract suite against the reference server, stateful checks included: every check is sent
// and must pass, with the sandbox's sample API key, its client ID from an allowed origin and its
// orchestrator key.

const allowedOrigin = "http://localhost:5173";
const target: ContractTarget = {
  baseUrl: "http://127.0.0.1:1",
  apiKey: sampleCredentials.apiKey,
  extra: { clientId: sampleCredentials.clientId, origin: allowedOrigin },
  orchestratorKey: sampleCredentials.orchestratorKey,
};

let running: RunningServer | undefined;
beforeAll(async () => {
  const config = createDefaultConfig();
  // The suite sends several hundred client-ID calls in well under a minute; the rate limit has
  // its own tests, so it is lifted here to keep 429s out of unrelated checks.
  config.clientIdRateLimitPerMinute = 1_000_000;
  running = await createServer({ config, logger: { error: () => {} } }).listen({
    port: 0,
    host: "127.0.0.1",
  });
  target.baseUrl = running.url;
});
afterAll(async () => {
  await running?.close();
});

const checks = describeContractSuite(target, { stateful: true });

describe("the plan for the reference server", () => {
  it("sends every check, stateful ones included, for every operation of the spec", () => {
    const operationIds = readPathOperations(loadBundledSpec()).map((operation) => operation.operationId);
    expect([...new Set(checks.map((check) => check.operationId))]).toEqual(operationIds);
    expect(checks.filter((check) => check.notRunReason !== undefined)).toEqual([]);
    const names = checks.map((check) => check.check);
    for (const stateful of [
      "wrong API key -> 401",
      "unknown client ID -> 401",
      "client ID from a disallowed origin -> 403",
      "wrong orchestrator key -> 401",
      "API key instead of an orchestrator key -> 401",
    ]) {
      expect(names).toContain(stateful);
    }
    expect(names.some((name) => name.startsWith("token of a secure payment just created"))).toBe(true);
    expect(names.some((name) => name.startsWith("request just created"))).toBe(true);
    expect(names.some((name) => name.startsWith("recurring payout just created"))).toBe(true);
    expect(names.some((name) => /^body: over 1 MiB .* -> 413$/.test(name))).toBe(true);
  });
});

describe("unknown body members, by the server's mode", () => {
  const unknownMemberChecks = (options: { strictBodies?: boolean }) =>
    planContractChecks(target, { stateful: true, ...options }).filter((check) =>
      check.check.includes("unknown field"),
    );

  it("are checked as ignored by default, as the real service ignores them", () => {
    const names = unknownMemberChecks({}).map((check) => `${check.operationId} ${check.check}`);
    expect(names).toContain("createPaymentDetails body (root): unknown field unexpectedField -> ignored");
    expect(names).toContain("createSecurePayment body /requests/0: unknown field unexpectedField -> ignored");
    expect(names.every((name) => name.endsWith("-> ignored"))).toBe(true);
  });

  it("are refused with 400 by a server started with strictBodies, and every such check passes", async () => {
    const config = createDefaultConfig();
    config.strictBodies = true;
    const strict = await createServer({ config, logger: { error: () => {} } }).listen({
      port: 0,
      host: "127.0.0.1",
    });
    try {
      const strictTarget = { ...target, baseUrl: strict.url };
      const checks = planContractChecks(strictTarget, { stateful: true, strictBodies: true }).filter(
        (check) => check.check.includes("unknown field"),
      );
      expect(checks.length).toBeGreaterThan(10);
      expect(checks.every((check) => check.check.endsWith("-> 400"))).toBe(true);
      const results = [];
      for (const check of checks) results.push(await check.run());
      expect(results.filter((result) => result.outcome !== "pass")).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
