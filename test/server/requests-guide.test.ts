import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";
import { runWalkthrough, shellBlocks, startServerScriptProcess } from "../support/guide-walkthrough.ts";

const guidePath = "docs/requests-and-payouts.md";

describe("docs/requests-and-payouts.md, against npm start", () => {
  let started: Awaited<ReturnType<typeof startServerScriptProcess>>;
  beforeAll(async () => {
    started = await startServerScriptProcess(["--port", "0"]);
  });
  afterAll(() => started?.server.kill());

  it("runs Try it as written: createRequest, getRequestStatus, searchPayments, createPayout, submitRecurringPaymentSignature, getRecurringPaymentStatus", async () => {
    const [walkthrough, ...others] = shellBlocks(guidePath, "Try it");
    expect(others).toEqual([]);
    const result = await runWalkthrough(walkthrough as string, started.url);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "paid: false",
      "steps: 2",
      "paid: true",
      "found: 150",
      "{ type: 'BigNumber', hex: '0x02c68af0bb140000' }",
      "recurring: active",
      "executed: 1 of 3",
      "",
    ]);
  });
});

describe("docs/requests-and-payouts.md, from TypeScript", () => {
  it("has snippets that import from payreq", () => {
    const snippets = guideSnippets(guidePath);
    expect(snippets).toHaveLength(4);
    for (const snippet of snippets) expect(snippet).toContain('from "payreq"');
  });

  it("compiles every snippet with the project's strict settings", () => {
    const viemTypes = path.join(repoRoot, "node_modules", "viem", "_types");
    const result = compileGuideSnippets(guidePath, {
      viem: [path.join(viemTypes, "index.d.ts")],
      "viem/accounts": [path.join(viemTypes, "accounts", "index.d.ts")],
    });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
