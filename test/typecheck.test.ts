import { describe, expect, it } from "vitest";
import { runExecutable } from "../scripts/run-tool.ts";
import { typecheckArguments } from "../scripts/typecheck.mjs";
import { nativeTypeScriptCompiler } from "../scripts/typescript-native.mjs";

describe("TypeScript", () => {
  it("compiles the whole project in strict mode, generated types included (npm run typecheck)", () => {
    const result = runExecutable(nativeTypeScriptCompiler, [...typecheckArguments, "--pretty", "false"]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
