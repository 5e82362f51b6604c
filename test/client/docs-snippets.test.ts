import { describe, expect, it } from "vitest";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";

const guidePath = "docs/client.md";

describe("docs/client.md", () => {
  it("has TypeScript snippets that import from payreq", () => {
    const snippets = guideSnippets(guidePath);
    expect(snippets).toHaveLength(10);
    for (const snippet of snippets) expect(snippet).toContain('from "payreq"');
  });

  it("compiles every snippet with the project's strict settings", () => {
    const result = compileGuideSnippets(guidePath);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
