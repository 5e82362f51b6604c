import { describe, expect, it } from "vitest";
import { nativeTypeScriptCompiler, runExecutable } from "../scripts/run-tool.ts";

describe("TypeScript", () => {
  it("compiles the whole project in strict mode, generated types included", () => {
    // tsc keeps what it checked in .cache/: a later run checks again only the files that changed
    // and those that depend on them, but still reads every file and reports every error.
    const result = runExecutable(nativeTypeScriptCompiler, [
      "--noEmit",
      "--pretty",
      "false",
      "--incremental",
      "--tsBuildInfoFile",
      ".cache/typecheck/tsconfig.tsbuildinfo",
    ]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
