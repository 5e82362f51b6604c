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

  it("keeps iconv-lite's Unicode encodings and leaves out its legacy code pages", async () => {
    const iconvEntry = path.join(dir, "iconv-entry.ts");
    const iconvBundle = path.join(dir, "iconv-bundle.mjs");
    writeFileSync(
      iconvEntry,
      [
        'import iconv from "iconv-lite";',
        'export const known = ["utf-8", "utf-16le", "utf-16be", "utf-32", "utf-7", "latin1", "shift_jis", "gbk"].filter((name) => iconv.encodingExists(name));',
        'export const decoded = [iconv.decode(Buffer.from("\\uFEFF{}", "utf8"), "utf-8"), iconv.decode(Buffer.from("[1]", "utf16le"), "utf-16le")];',
      ].join("\n"),
    );
    await bundleForNode(iconvEntry, iconvBundle);
    const { known, decoded } = await import(iconvBundle);
    expect(known).toEqual(["utf-8", "utf-16le", "utf-16be", "utf-32", "utf-7"]);
    expect(decoded).toEqual(["{}", "[1]"]);
    expect(statSync(iconvBundle).size).toBeLessThan(100_000);
  });
});
