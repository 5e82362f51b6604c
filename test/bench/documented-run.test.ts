import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatTable, isMet, type TargetCheck } from "../../scripts/bench/report.ts";
import { repoRoot } from "../../scripts/run-tool.ts";

const latest = JSON.parse(readFileSync(path.join(repoRoot, "bench-results", "latest.json"), "utf8")) as {
  date: string;
  checks: TargetCheck[];
};
const performanceDoc = readFileSync(path.join(repoRoot, "docs", "performance.md"), "utf8");
const latestRunStart = performanceDoc.indexOf("\n## Latest run\n");
/** The "Latest run" section of docs/performance.md, up to the next heading. */
const latestRunSection = performanceDoc.slice(
  latestRunStart,
  performanceDoc.indexOf("\n## ", latestRunStart + 1),
);

describe("docs/performance.md", () => {
  it("shows the committed bench-results/latest.json in its Latest run: its table and its time", () => {
    expect(latestRunStart).toBeGreaterThanOrEqual(0);
    expect(latest.checks).toHaveLength(10);
    expect(latestRunSection).toContain(formatTable(latest.checks));
    // "2026-11-27T06:31:47.869Z" is written "2026-11-27 06:31".
    expect(latestRunSection).toContain(
      `\`bench-results/latest.json\`, ${latest.date.slice(0, 16).replace("T", " ")},`,
    );
  });

  it("says how many targets the latest run met", () => {
    const words = ["None", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];
    const met = latest.checks.filter(isMet).length;
    const claim =
      met === latest.checks.length ? "Every target is met." : `${words[met]} of the ten targets are met.`;
    expect(latestRunSection.replace(/\s+/g, " ")).toContain(claim);
  });
});
