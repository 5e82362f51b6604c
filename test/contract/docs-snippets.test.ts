import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";

const guidePath = "docs/contract-suite.md";

describe("docs/contract-suite.md", () => {
  it("has a TypeScript snippet that imports the suite from payreq/contract", () => {
    const snippets = guideSnippets(guidePath);
    expect(snippets).toHaveLength(1);
    expect(snippets[0]).toContain('from "payreq/contract"');
  });

  it("compiles with the project's strict settings against src/contract", () => {
    const result = compileGuideSnippets(guidePath, {
      "payreq/contract": [path.join(repoRoot, "src", "contract", "index.ts")],
    });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
