import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/run-tool.ts";

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

/**
 * Writes package.json and package-lock.json of a consumer project that depends on payreq from
 * `spec` (`file:payreq-0.1.0.tgz`, `git+file:///...#sha`), with payreq's own dependencies pinned
 * as this repository's lockfile pins them. That is the lockfile `npm install <spec>` would write;
 * with it, `npm ci --offline` installs from npm's cache, which this repository's `npm ci` filled,
 * so the test needs no registry and installs the same versions every time.
 */
export function writeConsumerProject(dir: string, spec: string): void {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const payreq: Record<string, unknown> = {
    version: manifest.version,
    resolved: spec,
    license: manifest.license,
    dependencies: manifest.dependencies,
    bin: manifest.bin,
    engines: manifest.engines,
  };
  if (spec.startsWith("file:")) {
    const tarball = readFileSync(path.join(dir, spec.slice("file:".length)));
    payreq.integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  }
  const packages: Record<string, unknown> = {
    "": { name: "consumer", dependencies: { payreq: spec } },
    "node_modules/payreq": payreq,
  };
  // Only what payreq needs at run time: entries that npm marks as development-only stay out.
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key.startsWith("node_modules/") && !entry.dev && !entry.devOptional) packages[key] = entry;
  }
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { payreq: spec } }),
  );
  writeFileSync(
    path.join(dir, "package-lock.json"),
    JSON.stringify({ name: "consumer", lockfileVersion: 3, requires: true, packages }),
  );
}
