import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";

/** The text of every file under a folder of the repository, by path. */
function filesUnder(folder: string, ending: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(path.join(repoRoot, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(ending)) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(repoRoot, file), readFileSync(file, "utf8"));
  }
  return files;
}

const pathFiles = filesUnder("openapi/paths", ".yaml");
const domainFiles = filesUnder("src/server/domain", ".ts");
const operationTable = readFileSync(path.join(repoRoot, "src/server/operations/operation-table.ts"), "utf8");
const testFiles = [...filesUnder("test", ".ts")].filter(
  ([file]) => !file.endsWith("operation-names.test.ts"),
);

const filesMentioning = (files: Iterable<[string, string]>, pattern: RegExp) =>
  [...files].filter(([, text]) => pattern.test(text)).map(([file]) => file);

// Searching for an operationId finds its path file and its domain function, in folders named after
// its resource (openapi/paths/<resource>/, src/server/domain/<resource>/), its table entry and its tests.
describe.each(readPathOperations())("$operationId", ({ operationId, key }) => {
  const word = new RegExp(`\\b${operationId}\\b`);
  const declaring = filesMentioning(pathFiles, new RegExp(`operationId: ${operationId}$`, "m"));
  const [pathFile] = declaring;
  const resource = pathFile === undefined ? undefined : path.basename(path.dirname(pathFile));

  it("is declared in the path file named after its path, in its resource's folder", () => {
    expect(declaring.map((file) => [path.dirname(path.dirname(file)), path.basename(file)])).toEqual([
      ["openapi/paths", `${key.slice(1).replaceAll("/", "_")}.yaml`],
    ]);
  });

  it("has an entry in the operation table", () => {
    // The domain function itself, or `{ stateless: fn }` for one that reads nothing stored.
    expect(operationTable).toMatch(
      new RegExp(`^  (${operationId}|${operationId}: \\{ stateless: ${operationId} \\}),$`, "m"),
    );
  });

  it("is answered by the domain function of the same name, in the folder of its resource", () => {
    const declaration = new RegExp(`export (async )?function ${operationId}\\(`);
    expect(filesMentioning(domainFiles, declaration).map((file) => path.dirname(file))).toEqual([
      `src/server/domain/${resource}`,
    ]);
  });

  it("is named by at least one test", () => {
    expect(filesMentioning(testFiles, word).length).toBeGreaterThan(0);
  });
});
