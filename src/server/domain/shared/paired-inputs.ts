import { type ValidationIssue, validationFailed } from "../../problems.ts";

/**
 * Refuses inputs that only make sense together when one comes without the other: 400 naming the
 * missing one, at `<location>/<name>`. `pairs` lists each pair once.
 */
export function requireBothOrNeither<T extends Record<string, unknown>>(
  values: T,
  location: "/query" | "/body",
  ...pairs: [keyof T & string, keyof T & string][]
): void {
  const issues: ValidationIssue[] = [];
  for (const [a, b] of pairs) {
    if (values[a] !== undefined && values[b] === undefined) {
      issues.push({ path: `${location}/${b}`, message: `is required together with ${a}` });
    }
    if (values[b] !== undefined && values[a] === undefined) {
      issues.push({ path: `${location}/${a}`, message: `is required together with ${b}` });
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
}
