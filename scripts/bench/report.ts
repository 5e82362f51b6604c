export interface TargetCheck {
  metric: string;
  value: number;
  unit: string;
  /** `>=` or `<=` the target. */
  comparison: ">=" | "<=";
  target: number;
}

export const isMet = (check: TargetCheck) =>
  check.comparison === ">=" ? check.value >= check.target : check.value <= check.target;

function format(value: number, unit: string): string {
  const digits = unit === "×" || unit === "%" ? 2 : unit === "ms" ? 1 : 0;
  return `${value.toFixed(digits)}${unit === "×" ? "×" : ` ${unit}`}`;
}

/** The checks as a Markdown table: the same text the console shows and docs/performance.md holds. */
export function formatTable(checks: TargetCheck[]): string {
  const rows = checks.map(
    (check) =>
      `| ${check.metric} | ${format(check.value, check.unit)} | ${check.comparison} ${format(check.target, check.unit)} | ${isMet(check) ? "met" : "**missed**"} |`,
  );
  return ["| measure | this run | target | |", "|---|---|---|---|", ...rows].join("\n");
}
