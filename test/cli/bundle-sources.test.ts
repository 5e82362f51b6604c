import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleForNode, freshBundle, repoRoot } from "../../scripts/bundle-sources.mjs";

const cache = path.join(repoRoot, ".cache");
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(path.join(cache, "test-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles a TypeScript entry of these lines in the test's folder: the bundle's path and what it was built from. */
async function bundleLines(name: string, lines: string[]): Promise<{ bundle: string; inputs: string[] }> {
  const entry = path.join(dir, `${name}-entry.ts`);
  const bundle = path.join(dir, `${name}-bundle.mjs`);
  writeFileSync(entry, lines.join("\n"));
  return { bundle, inputs: await bundleForNode(entry, bundle) };
}

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

  it("refuses a bundle that would hold a character outside ASCII, naming where, and writes none", async () => {
    const name = "non-ascii";
    const refusal = await bundleLines(name, [
      "export const waiting = /Starting …\\s+Prism/.test('Starting … Prism');",
    ]).then(
      () => "bundled",
      (error: Error) => error.message,
    );
    const opening = `.cache/${path.basename(dir)}/${name}-bundle.mjs would hold a character outside ASCII, in `;
    const closing = ": escape it in the source";
    expect(refusal.startsWith(opening) && refusal.endsWith(closing), refusal).toBe(true);
    // The bundle's text from 40 bytes before the first such character, as esbuild wrote it: the
    // regular expression's literal kept as written, the code around it esbuild's own.
    const context = JSON.parse(refusal.slice(opening.length, -closing.length)) as string;
    expect(context).toContain("/Starting …\\s+Prism/");
    expect(Buffer.byteLength(context.slice(0, context.indexOf("…")))).toBe(40);
    expect(statSync(path.join(dir, `${name}-bundle.mjs`), { throwIfNoEntry: false })).toBeUndefined();

    // The same expression with the escape bundles, and matches the same text.
    const { bundle: escaped } = await bundleLines("escaped", [
      "export const waiting = /Starting \\u2026\\s+Prism/.test('Starting … Prism');",
    ]);
    expect((await import(escaped)).waiting).toBe(true);
  });

  it("keeps iconv-lite's Unicode encodings and leaves out its legacy code pages", async () => {
    const { bundle: iconvBundle } = await bundleLines("iconv", [
      'import iconv from "iconv-lite";',
      'export const known = ["utf-8", "utf-16le", "utf-16be", "utf-32", "utf-7", "latin1", "shift_jis", "gbk"].filter((name) => iconv.encodingExists(name));',
      'export const decoded = [iconv.decode(Buffer.from("\\uFEFF{}", "utf8"), "utf-8"), iconv.decode(Buffer.from("[1]", "utf16le"), "utf-16le")];',
    ]);
    const { known, decoded } = await import(iconvBundle);
    expect(known).toEqual(["utf-8", "utf-16le", "utf-16be", "utf-32", "utf-7"]);
    expect(decoded).toEqual(["{}", "[1]"]);
    expect(statSync(iconvBundle).size).toBeLessThan(100_000);
  });

  it("holds one copy of each version of a package, however many npm installed, and runs on it", async () => {
    // The installed packages from the lockfile: each folder's `name@version`.
    const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const versionOf = new Map<string, string>();
    for (const [folder, entry] of Object.entries(lock.packages)) {
      const at = folder.lastIndexOf("node_modules/");
      if (at >= 0 && entry.version) versionOf.set(folder, `${folder.slice(at + 13)}@${entry.version}`);
    }
    const copiesOf = (key: string) => [...versionOf].filter(([, version]) => version === key).length;
    // Express, body-parser and send each have a mime-types 3.0.2 and a mime-db 1.54.0 of their own.
    expect(copiesOf("mime-types@3.0.2")).toBe(3);
    expect(copiesOf("mime-db@1.54.0")).toBe(3);

    const { bundle: expressBundle, inputs } = await bundleLines("express", [
      'import express from "express";',
      "export function start() {",
      "  const app = express();",
      '  app.post("/echo", express.json(), (req, res) => res.json({ got: req.body, type: req.is("json") }));',
      '  return app.listen(0, "127.0.0.1");',
      "}",
    ]);
    const folders = new Map<string, Set<string>>();
    for (const input of inputs) {
      const relative = path.relative(repoRoot, input).split(path.sep).join("/");
      const folder = [...versionOf.keys()]
        .filter((candidate) => relative.startsWith(`${candidate}/`))
        .sort((a, b) => b.length - a.length)[0];
      if (folder === undefined) continue;
      const key = versionOf.get(folder) as string;
      folders.set(key, (folders.get(key) ?? new Set()).add(folder));
    }
    expect(folders.get("mime-types@3.0.2")).toEqual(
      new Set(["node_modules/body-parser/node_modules/mime-types"]),
    );
    expect([...folders].filter(([, copies]) => copies.size > 1)).toEqual([]);

    const { start } = (await import(expressBundle)) as { start: () => import("node:http").Server };
    const server = start();
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8" },
        body: '{"a":1}',
      });
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await answer.json()).toEqual({ got: { a: 1 }, type: "json" });
    } finally {
      server.close();
    }
  });
});
