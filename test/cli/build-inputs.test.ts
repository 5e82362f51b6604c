import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashBuildInputs as hashOf } from "../../scripts/build-inputs.mjs";

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A checkout holding only what the build reads, plus a README it does not. */
function buildTree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "payreq-build-inputs-"));
  trees.push(root);
  const files: Record<string, string> = {
    "src/index.ts": "export const a = 1;\n",
    "src/cli/run-cli.ts": "export const b = 2;\n",
    "generated/openapi.json": "{}\n",
    "package.json": "{}\n",
    "package-lock.json": "{}\n",
    "tsconfig.json": "{}\n",
    "tsconfig.build.json": "{}\n",
    "tsconfig.testing-types.json": "{}\n",
    "scripts/build-lib.mjs": "",
    "scripts/build-inputs.mjs": "",
    "scripts/bundle-cli.mjs": "",
    "scripts/bundle-sources.mjs": "",
    "scripts/typescript-native.mjs": "",
    "README.md": "# x\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("the build's inputs (npm run build:lib skips a build whose inputs are unchanged)", () => {
  it("hash the same for the same files, whatever the folder", () => {
    expect(hashOf(buildTree())).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(buildTree())).toBe(hashOf(buildTree()));
  });

  it.each([
    ["a source changes", "src/cli/run-cli.ts", "export const b = 3;\n"],
    ["a source is added", "src/server/new.ts", ""],
    ["the generated spec changes", "generated/openapi.json", '{"openapi":"3.1.0"}\n'],
    ["the lockfile changes", "package-lock.json", '{"lockfileVersion":3}\n'],
    ["the bundler's script changes", "scripts/bundle-sources.mjs", "// new\n"],
  ])("hash differently when %s", (_, file, text) => {
    const root = buildTree();
    const before = hashOf(root);
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
    expect(hashOf(root)).not.toBe(before);
  });

  it("hash differently when the same bytes move to another file", () => {
    const root = buildTree();
    const before = hashOf(root);
    writeFileSync(path.join(root, "src/index.ts"), "export const b = 2;\n");
    writeFileSync(path.join(root, "src/cli/run-cli.ts"), "export const a = 1;\n");
    expect(hashOf(root)).not.toBe(before);
  });

  it("ignore what the build does not read", () => {
    const root = buildTree();
    const before = hashOf(root);
    writeFileSync(path.join(root, "README.md"), "# changed\n");
    mkdirSync(path.join(root, "docs"));
    writeFileSync(path.join(root, "docs", "guide.md"), "text\n");
    expect(hashOf(root)).toBe(before);
  });
});
