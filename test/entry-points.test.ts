import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/run-tool.ts";

/**
 * Ajv has no `exports` map: its documentation names these modules of its `dist/` as the entry
 * points of JSON Schema draft 2020-12 and of standalone validation code. Nothing else of any
 * package's `dist/` is imported: its internals may change in any release.
 */
const documentedDistEntries = new Set(["ajv/dist/2020.js", "ajv/dist/standalone/index.js"]);

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|cts|mjs|cjs|js)$/.test(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
}

const importedModules = (text: string) =>
  [...text.matchAll(/(?:from|import|require)\s*\(?\s*["']([^"'.][^"']*)["']/g)].map(
    (match) => match[1] as string,
  );

describe("dependencies", () => {
  it("are imported through their documented entry points, never from their dist/ internals", () => {
    const found: string[] = [];
    for (const file of ["src", "scripts", "test", "bin"].flatMap(sourceFiles)) {
      for (const specifier of importedModules(readFileSync(path.join(repoRoot, file), "utf8"))) {
        if (specifier.includes("/dist/") && !documentedDistEntries.has(specifier))
          found.push(`${file}: ${specifier}`);
      }
    }
    expect(found).toEqual([]);
  });
});
