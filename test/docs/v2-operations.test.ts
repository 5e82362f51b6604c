import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";

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
  it("lists the service's 41 v2 operations of 0.13.0, and those 0.31.0 adds, once each", () => {
    expect(rows.length).toBeGreaterThanOrEqual(41);
    expect(new Set(rows.map((row) => `${row.method} ${row.path}`)).size).toBe(rows.length);
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
