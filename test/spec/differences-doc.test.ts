import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { operations as givenOperations } from "./checklist.ts";

const page = readFileSync(path.join(repoRoot, "docs", "differences.md"), "utf8");
const sections = [...page.matchAll(/^### (\w+)$/gm)].map((match) => match[1]);

describe("docs/differences.md", () => {
  it("has a section for every operation of the given contract", () => {
    const given = new Set(
      givenOperations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`),
    );
    const operationIds = readPathOperations()
      .filter((operation) => given.has(`${operation.method} ${operation.key}`))
      .map((operation) => operation.operationId);
    expect(operationIds).toHaveLength(givenOperations.length);
    for (const operationId of operationIds) expect(sections, operationId).toContain(operationId);
  });
});
