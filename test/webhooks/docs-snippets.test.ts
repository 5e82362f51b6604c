import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";

const guidePath = "docs/webhooks.md";

describe("docs/webhooks.md", () => {
  it("has TypeScript snippets that import from payreq", () => {
    const snippets = guideSnippets(guidePath);
    expect(snippets).toHaveLength(7);
    for (const snippet of snippets) expect(snippet).toContain('from "payreq"');
  });

  it("states the known-answer vector the tests check", () => {
    expect(readFileSync(path.join(repoRoot, guidePath), "utf8")).toContain(
      "the secret `It's a Secret to Everybody`\nand the body `Hello, World!` sign to\n`757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17`",
    );
  });

  it("compiles every snippet with the project's strict settings", () => {
    const expressTypes = path.join(repoRoot, "node_modules", "@types", "express", "index.d.ts");
    const result = compileGuideSnippets(guidePath, { express: [expressTypes] });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
