import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Type tests (*.test-d.ts) run through tsc with the project's tsconfig; a type error in one fails
    // the run. Errors elsewhere are reported once, by test/typecheck.test.ts.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
      ignoreSourceErrors: true,
    },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
