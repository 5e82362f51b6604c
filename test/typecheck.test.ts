import { describe, expect, it } from "vitest";
import { runTool } from "../scripts/run-tool.ts";

describe("TypeScript", () => {
  it("compiles the whole project in strict mode, generated types included", () => {
    const result = runTool("tsc", ["--noEmit", "--pretty", "false"]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
