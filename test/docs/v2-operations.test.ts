import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { requestApi0_13_0, requestApi0_31_0 } from "../spec/upstream-operations.ts";
import { unnamedTemplate } from "../support/published-examples.ts";

interface Row {
  method: string;
  path: string;
  operationId: string;
  status: string;
  note: string;
}

function tableRows(): Row[] {
  const text = readFileSync(path.join(repoRoot, "docs", "v2-operations.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => /^\| `(GET|POST|PUT|PATCH|DELETE) \/v2\//.test(line))
    .map((line) => {
      const [operation = "", operationId = "", status = "", note = ""] = line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim().replace(/^`|`$/g, ""));
      const [method = "", path = ""] = operation.split(" ");
      return { method, path, operationId, status, note };
    });
}

const rows = tableRows();
const served = readPathOperations().filter((operation) => operation.key.startsWith("/v2/"));

describe("docs/v2-operations.md", () => {
  it("lists every v2 operation the service published in 0.13.0 or publishes in 0.31.0, once each", () => {
    const listed = rows.map((row) => unnamedTemplate(row.method, row.path));
    expect(new Set(listed).size).toBe(listed.length);
    const published = new Set(
      [...requestApi0_13_0, ...requestApi0_31_0]
        .filter(([, template]) => template.startsWith("/v2/"))
        .map(([method, template]) => unnamedTemplate(method, template)),
    );
    expect(listed.toSorted()).toEqual([...published].sort());
  });

  it("marks served exactly the v2 operations of the spec, with their operationIds", () => {
    const documented = rows
      .filter((row) => row.status === "served")
      .map((row) => `${row.method} ${row.path} ${row.operationId}`);
    const inSpec = served.map((operation) => `${operation.method} ${operation.key} ${operation.operationId}`);
    expect(documented.sort()).toEqual(inSpec.sort());
  });

  it("says why for every operation it does not serve", () => {
    for (const row of rows.filter((entry) => entry.status !== "served")) {
      expect(row.operationId, `${row.method} ${row.path}`).toBe("");
      expect(row.note, `${row.method} ${row.path}`).not.toBe("");
    }
  });
});
