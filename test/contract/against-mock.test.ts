import { beforeAll, describe, expect, it } from "vitest";
import { type ContractTarget, MissingCredential } from "../../src/contract/target.ts";
import { v2ScenarioChecks } from "../../src/contract/v2-scenarios.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { sharedPrism } from "../support/shared-prism.ts";
import { describeContractSuite } from "./describe-contract-suite.ts";

// The contract suite against the Prism mock, one test per check. Prism is stateless: the checks it
// cannot pass are listed as skipped with the reason in their name; those it falls short on only in
// part run, and are skipped at run time (with what Prism answered) unless they pass outright.

const target: ContractTarget = {
  baseUrl: "http://127.0.0.1:1",
  apiKey: "mock-api-key",
  extra: { clientId: "mock-client-id", origin: "https://shop.example.com" },
};

beforeAll(async () => {
  target.baseUrl = (await sharedPrism()).baseUrl;
});

// Prism reads the closed request-body schemas literally: it refuses members they do not describe.
const checks = describeContractSuite(target, { stateful: false, strictBodies: true });

describe("the plan for the mock", () => {
  it("covers every operation of the spec's paths, each with a valid call and a credential check", () => {
    const operations = readPathOperations(loadBundledSpec());
    const operationIds = operations.map((operation) => operation.operationId);
    const open = new Set(
      operations.filter((operation) => operation.acceptsAnonymous).map((op) => op.operationId),
    );
    expect(operationIds.length).toBeGreaterThanOrEqual(11);
    expect([...new Set(checks.map((check) => check.operationId))]).toEqual(operationIds);
    for (const operationId of operationIds) {
      const names = checks.filter((check) => check.operationId === operationId).map((check) => check.check);
      expect(
        names.some((name) => name.startsWith("valid call")),
        operationId,
      ).toBe(true);
      // The health checks and the sign-in operations take no credential: they have none to refuse.
      if (open.has(operationId)) {
        expect(names[0], operationId).toBe("valid call (no credential)");
        expect(names, operationId).not.toContain("no credentials -> 401");
      } else expect(names, operationId).toContain("no credentials -> 401");
    }
  });

  it("marks exactly the checks that need state, with Prism's reason", () => {
    // Checks not sent for want of a credential (an Auth API session, which only a stateful target
    // can open) are reported as such, not as needing state.
    const marked = checks.filter(
      (check) => check.notRunReason !== undefined && !(check.notRunReason instanceof MissingCredential),
    );
    const scenarios = v2ScenarioChecks.map((entry) => `${entry.operationId} ${entry.check}`);
    for (const check of marked) {
      if (scenarios.includes(`${check.operationId} ${check.check}`)) continue;
      expect(check.check).toMatch(
        /^(wrong API key -> 401|wrong orchestrator key -> 401|session cookie of no session -> 401|bearer token of no session -> 401|API key instead of an orchestrator key -> 401|unknown client ID -> 401|client ID from a disallowed origin -> 403|path \w+: unknown id -> 404|body: over 1 MiB .* -> 413|body: items on different networks -> 400|token of a secure payment just created .*|calldata of a request just created .*|request just created .*|recurring payout just created: .*|challenge signed by a new wallet -> .*)$/,
      );
    }
    // Every v2 scenario is reported, not run: each needs state or the server's own currency table.
    expect(marked.filter((check) => scenarios.includes(`${check.operationId} ${check.check}`)).length).toBe(
      scenarios.length,
    );
    const reasons = new Set(marked.map((check) => check.notRunReason));
    expect([...reasons].sort()).toEqual([
      "Prism accepts any API key value",
      "Prism accepts any client ID value",
      "Prism accepts any credential of the operation's security",
      "Prism accepts any orchestrator key value",
      "Prism answers examples, not the currency table both paths read",
      "Prism cannot know a client ID's allowed domains",
      "Prism cannot know which sessions exist",
      "Prism cannot tell unknown ids: it answers every well-formed id with an example",
      "Prism has no body size limit: it accepts the padded body",
      "Prism is stateless: it does not keep what it answers 201 to, and checks no signature",
      "Prism is stateless: it keeps nothing a call creates for the next call to read",
      "the rule spans several fields and is not in the schema, which is all Prism checks",
    ]);
  });
});
