import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";

// The package root serves the browser client too. A value import of a Node built-in or of a
// server package in src/webhooks would reach every browser bundle of `payreq` and break it, so
// those modules are imported for their types only (node:crypto is loaded on first use).

const sourceDir = path.join(repoRoot, "src", "webhooks");
const nodeOnly = /^(node:|express$|http$|crypto$|stream$|zlib$)/;

function valueImports(source: string): string[] {
  const statements = source.match(/^(?:import|export)\s[^;]*?\sfrom\s+"[^"]+";/gms) ?? [];
  return statements
    .filter((statement) => !/^(?:import|export)\s+type\s/.test(statement))
    .map((statement) => /from\s+"([^"]+)"/.exec(statement)?.[1] ?? "");
}

describe("src/webhooks imports", () => {
  it("finds the imports it checks", () => {
    expect(valueImports('import { a } from "node:crypto";\nimport type { B } from "express";')).toEqual([
      "node:crypto",
    ]);
  });

  it.each(readdirSync(sourceDir).filter((file) => file.endsWith(".ts")))(
    "%s imports no Node built-in or server package as a value",
    (file) => {
      const imports = valueImports(readFileSync(path.join(sourceDir, file), "utf8"));
      expect(imports.filter((specifier) => nodeOnly.test(specifier))).toEqual([]);
    },
  );
});
