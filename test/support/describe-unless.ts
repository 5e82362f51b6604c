import { describe } from "vitest";

/**
 * `describe` for tests that need something the machine may lack (Chromium, PostgreSQL): skipped,
 * with `skipReason` in its name and on stderr, when the reason is given.
 */
export function describeUnless(skipReason: string | undefined, name: string, tests: () => void): void {
  if (skipReason) {
    process.stderr.write(`skipping "${name}": ${skipReason}\n`);
    describe.skip(`${name} (skipped: ${skipReason})`, tests);
  } else {
    describe(name, tests);
  }
}
