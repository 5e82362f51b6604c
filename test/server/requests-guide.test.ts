import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";

const guidePath = "docs/requests-and-payouts.md";

// Its "Try it" walkthrough runs with the other guides against one server: test/server/guides.test.ts.

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
