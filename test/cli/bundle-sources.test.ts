import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleForNode, freshBundle, repoRoot } from "../../scripts/bundle-sources.mjs";

const cache = path.join(repoRoot, ".cache");
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(path.join(cache, "test-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the bundles `npm start` and `payreq` run (scripts/bundle-sources.mjs)", () => {
  const entry = path.join(dir, "entry.ts");
  const part = path.join(dir, "part.ts");
  const bundle = path.join(dir, "bundle.mjs");

  it("is built once, then reused until a file it was built from changes", async () => {
    writeFileSync(part, "export const answer: number = 41;\n");
    writeFileSync(entry, 'import { answer } from "./part.ts";\nexport const reply = answer + 1;\n');
    expect(await freshBundle(entry, bundle)).toBe(bundle);
    const built = statSync(bundle).mtimeMs;
    expect((await import(`${bundle}?first`)).reply).toBe(42);

    await freshBundle(entry, bundle);
    expect(statSync(bundle).mtimeMs).toBe(built);

    writeFileSync(part, "export const answer: number = 999;\n");
    await freshBundle(entry, bundle);
    expect(statSync(bundle).mtimeMs).not.toBe(built);
    expect((await import(`${bundle}?second`)).reply).toBe(1000);
  });

  it("refuses a place from which the sources' relative paths would miss generated/ and docs/", async () => {
    await expect(bundleForNode(entry, path.join(repoRoot, "bundle.mjs"))).rejects.toThrow(
      "must sit two directories below",
    );
  });
});
