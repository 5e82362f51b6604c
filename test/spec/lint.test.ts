import { describe, expect, it } from "vitest";
import { runTool } from "../../scripts/run-tool.ts";

describe("spec lint (Redocly, redocly.yaml)", () => {
  const result = runTool("redocly", ["lint", "openapi/openapi.yaml", "--format", "json"]);
  const report = JSON.parse(result.stdout) as {
    totals: { errors: number; warnings: number };
    problems: unknown[];
  };

  it("reports no error and no warning", () => {
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.status).toBe(0);
  });
});
