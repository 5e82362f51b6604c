import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runTool } from "../../scripts/run-tool.ts";

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

describe("spec lint (Spectral, spectral:oas in .spectral.yaml)", () => {
  // The bundled document is the one every tool reads; its source files are split by $ref.
  const result = runTool("spectral", [
    "lint",
    "generated/openapi.json",
    "--ruleset",
    ".spectral.yaml",
    "--format",
    "json",
    "--quiet",
  ]);

  it("reports nothing, not even a hint", () => {
    const findings = (JSON.parse(result.stdout || "[]") as SpectralResult[]).map(
      ({ code, message, path }) => `${code} at ${path.join(".")}: ${message}`,
    );
    expect(findings).toEqual([]);
    expect(result.status).toBe(0);
  });
});

describe("the Spectral ruleset", () => {
  it("catches an array schema without items, as it did under BatchPayoutRequest.not", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "payreq-spectral-"));
    const file = path.join(folder, "broken.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1", description: "d", contact: { name: "c" } },
        servers: [{ url: "http://127.0.0.1" }],
        tags: [],
        paths: {},
        components: { schemas: { Broken: { type: "object", properties: { list: { type: "array" } } } } },
      }),
    );
    const result = runTool("spectral", ["lint", file, "--ruleset", ".spectral.yaml", "--format", "json"]);
    expect((JSON.parse(result.stdout) as SpectralResult[]).map((finding) => finding.code)).toContain(
      "array-items",
    );
    expect(result.status).not.toBe(0);
  });
});
