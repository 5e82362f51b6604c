import { defineConfig } from "vitest/config";
import { nativeTypeScriptCompiler } from "./scripts/typescript-native.mjs";

// Some machines (the one docs/performance.md was measured on among them) name the system's whole
// certificate bundle in NODE_EXTRA_CA_CERTS, which every Node process parses as it starts: some
// 50 ms of CPU each, for the 200 or so processes a run starts. None of them opens a TLS
// connection: the servers, CLIs and browsers the tests start talk over loopback, and npm installs
// from its cache, offline. A test that needs TLS sets the variable for the process it starts.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Type tests (*.test-d.ts) run through tsc with the project's settings, over the type tests and
    // what they import only; a type error in one fails the run. The whole project is compiled once,
    // by test/typecheck.test.ts, which reports errors elsewhere.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.type-tests.json",
      ignoreSourceErrors: true,
      // TypeScript 7's native compiler, by its path: see scripts/typescript-native.mjs.
      checker: nativeTypeScriptCompiler,
    },
    // Each worker keeps the modules it loaded from one test file to the next: the spec, its
    // validators and the server's code are loaded once per worker instead of once per file, which
    // was a third of the suite's time. No test mocks modules or changes globals it does not restore.
    isolate: false,
    // Two files at a time even on two cores (vitest's default would be one): many tests mostly
    // wait on processes they start (npm, Prism, PostgreSQL, tsc, Chromium).
    maxWorkers: 2,
    // One PostgreSQL server and one Prism mock for the whole run, each started by the first test
    // file that needs it; the anvil nodes test processes start are ended with the run.
    globalSetup: [
      "test/support/postgres-global-setup.ts",
      "test/support/prism-global-setup.ts",
      "test/support/anvil-global-setup.ts",
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
