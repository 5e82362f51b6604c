// Runs a CommonJS bundle through V8's code cache beside it: `npm start`, `npm run contract` and
// the packed `payreq` command start from one. Node 20 caches no ES module's code; for a 3 MB
// bundle, reading its compiled functions saves a sizeable part of the start-up. Plain
// JavaScript, so that it runs before anything is compiled.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

export const codeCacheFile = (bundleFile) => `${bundleFile}.v8-cache`;

/**
 * Runs a CommonJS bundle as Node would require it, compiled from the code cache beside it when
 * that cache was made from this very source: the cache starts with the source's SHA-1 (V8
 * itself compares only the source's length, its own version and its flags).
 */
export function loadWithCodeCache(bundleFile) {
  const bytes = readFileSync(bundleFile);
  const digest = createHash("sha1").update(bytes).digest();
  const cacheFile = codeCacheFile(bundleFile);
  let cachedData;
  try {
    const cache = readFileSync(cacheFile);
    if (cache.subarray(0, digest.length).equals(digest)) cachedData = cache.subarray(digest.length);
  } catch {
    // No cache yet: compiled from the source.
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString("utf8")}\n})`,
    {
      filename: bundleFile,
      ...(cachedData ? { cachedData } : {}),
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(bundleFile),
    module,
    bundleFile,
    path.dirname(bundleFile),
  );
  return {
    get exports() {
      return module.exports;
    },
    cacheAccepted: cachedData !== undefined && script.cachedDataRejected === false,
    writeCache() {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, Buffer.concat([digest, script.createCachedData()]));
        renameSync(temporary, cacheFile);
      } catch {
        // An installed package may be read-only: the next start compiles from the source again.
        rmSync(temporary, { force: true });
      }
    },
  };
}

/**
 * The event a bundled program emits on `process` once it has started (`payreq serve` once it
 * answers): the cache is written then rather than at exit. A server that ran for hours has had
 * the bytecode of its start (the modules' bodies, the warm-up) dropped by V8 when it stops, and a
 * cache written then would hold half of it.
 */
export const startedEvent = "payreq:started";

/**
 * Runs the bundle, and writes a fitting cache, when the one beside it did not fit, as the
 * program reports it has started or else as the process exits.
 */
export function runWithCodeCache(bundleFile) {
  const bundle = loadWithCodeCache(bundleFile);
  if (!bundle.cacheAccepted) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      bundle.writeCache();
    };
    process.once(startedEvent, write);
    process.once("exit", write);
  }
  return bundle.exports;
}
