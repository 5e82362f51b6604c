import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundleForNode, repoRoot } from "../../scripts/bundle-sources.mjs";
import { codeCacheFile, loadWithCodeCache, startedEvent } from "../../src/cli/code-cache.mjs";
import { startedEvent as reportedEvent } from "../../src/cli/started-event.ts";

const cache = path.join(repoRoot, ".cache");
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(path.join(cache, "test-code-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed command's CommonJS bundle and its V8 code cache (src/cli/code-cache.mjs)", () => {
  it("compiles from the source without a cache, then from the cache it wrote", () => {
    const bundle = path.join(dir, "plain.cjs");
    writeFileSync(bundle, "module.exports = { answer: () => 42, file: __filename, dir: __dirname };\n");

    const first = loadWithCodeCache(bundle);
    expect(first.cacheAccepted).toBe(false);
    expect(first.exports).toMatchObject({ file: bundle, dir });
    expect((first.exports as { answer(): number }).answer()).toBe(42);
    expect(existsSync(codeCacheFile(bundle))).toBe(false);
    first.writeCache();
    expect(existsSync(codeCacheFile(bundle))).toBe(true);

    const second = loadWithCodeCache(bundle);
    expect(second.cacheAccepted).toBe(true);
    expect((second.exports as { answer(): number }).answer()).toBe(42);
  });

  it("compiles from the source when the cache does not fit it, and writes a fitting one", () => {
    const bundle = path.join(dir, "stale.cjs");
    writeFileSync(bundle, "module.exports = { answer: () => 7 };\n");
    writeFileSync(codeCacheFile(bundle), "not a code cache");

    const loaded = loadWithCodeCache(bundle);
    expect(loaded.cacheAccepted).toBe(false);
    expect((loaded.exports as { answer(): number }).answer()).toBe(7);
    loaded.writeCache();
    expect(loadWithCodeCache(bundle).cacheAccepted).toBe(true);
  });

  it("does not take the code of another source of the same length from the cache", () => {
    const bundle = path.join(dir, "changed.cjs");
    writeFileSync(bundle, "module.exports = { answer: () => 1 };\n");
    loadWithCodeCache(bundle).writeCache();
    writeFileSync(bundle, "module.exports = { answer: () => 2 };\n");

    const loaded = loadWithCodeCache(bundle);
    expect(loaded.cacheAccepted).toBe(false);
    expect((loaded.exports as { answer(): number }).answer()).toBe(2);
  });

  it("gives bundled sources their URL relative to the bundle, as import.meta.url gave them theirs", async () => {
    const entry = path.join(dir, "where.ts");
    const bundle = path.join(dir, "where.cjs");
    writeFileSync(entry, "export const here: string = import.meta.url;\n");
    await bundleForNode(entry, bundle, { format: "cjs" });
    expect((loadWithCodeCache(bundle).exports as { here: string }).here).toBe(pathToFileURL(bundle).href);
  });

  it("writes a missing cache once the program reports it has started, not only as it exits", () => {
    expect(reportedEvent).toBe(startedEvent);
    const bundle = path.join(dir, "started.cjs");
    // Reports its start a moment after it has run, as a server does once it listens, then looks
    // for the cache before the process exits.
    writeFileSync(
      bundle,
      "setImmediate(() => {\n" +
        `  process.emit(${JSON.stringify(startedEvent)});\n` +
        '  process.stdout.write(String(require("node:fs").existsSync(__filename + ".v8-cache")));\n' +
        "});\n",
    );
    const runner = `import { runWithCodeCache } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, "src", "cli", "code-cache.mjs")).href)};\nrunWithCodeCache(${JSON.stringify(bundle)});\n`;
    const printed = execFileSync(process.execPath, ["--input-type=module", "-e", runner], {
      encoding: "utf8",
    });
    expect(printed).toBe("true");
    expect(loadWithCodeCache(bundle).cacheAccepted).toBe(true);
  });
});
