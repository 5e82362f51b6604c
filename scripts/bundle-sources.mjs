// One-file bundles of the TypeScript sources and their dependencies, for Node: `npm start`, the
// `payreq` command in a checkout and the packed package's command line. One file loads in a
// fraction of the time of hundreds of modules and needs no TypeScript loader, and only the parts
// of viem the code uses are in it. Plain JavaScript, so that it runs before anything is compiled.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Writes through a file of its own and a rename: a process that reads `file` meanwhile sees the old or the new whole. */
function writeAtomically(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Refuses a bundle with a byte outside ASCII, naming where it is. One such character makes V8 hold
 * the whole script as two bytes a character: for the 2 MB command-line bundle, decoding it took
 * twice as long on every start (12 ms against 6 here) and compiling it from its cache 4 ms more.
 * esbuild escapes such characters in strings, but keeps a regular expression's as written; the
 * source then writes the escape (\u2026, say) itself.
 */
function requireAscii(file, contents) {
  if (isAscii(contents)) return;
  const at = contents.findIndex((byte) => byte > 0x7f);
  const around = Buffer.from(contents.subarray(Math.max(0, at - 40), at + 40)).toString("utf8");
  throw new Error(
    `${path.relative(repoRoot, file)} would hold a character outside ASCII, in ${JSON.stringify(around)}: escape it in the source`,
  );
}

/**
 * iconv-lite's Unicode encodings without its legacy single- and double-byte code pages, a third
 * of a bundle's bytes that each start would hash, scan and, at the first body read, load. The
 * bundled programs decode nothing but JSON request bodies, which body-parser refuses in any
 * charset but a Unicode one (test/server/json-body.test.ts).
 */
const unicodeOnlyIconv = {
  name: "unicode-only-iconv",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/encodings$/ }, (args) =>
      /[\\/]iconv-lite[\\/]lib$/.test(args.resolveDir)
        ? {
            path: path.join(args.resolveDir, "..", "encodings", "unicode.js"),
            namespace: "unicode-encodings",
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "unicode-encodings" }, (args) => ({
      resolveDir: path.dirname(args.path),
      loader: "js",
      contents: [
        '"use strict";',
        'for (const codecs of [require("./internal"), require("./utf32"), require("./utf16"), require("./utf7")]) {',
        "  for (const name of Object.keys(codecs)) exports[name] = codecs[name];",
        "}",
      ].join("\n"),
    }));
  },
};

/** The version of the package installed in `folder` (from the repository root), if there is one. */
function installedVersion(folder) {
  try {
    return JSON.parse(readFileSync(path.join(repoRoot, folder, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/**
 * The installed packages, from the lockfile: every package folder (from the repository root),
 * and for each folder of a package installed more than once at one version, the first of those
 * folders in sorted order, each checked against the package.json installed there. None without a
 * lockfile.
 */
function installedPackages() {
  const folders = new Set();
  const firstCopyOf = new Map();
  let lock;
  try {
    lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8"));
  } catch {
    return { folders, firstCopyOf };
  }
  const copies = new Map();
  for (const [folder, entry] of Object.entries(lock.packages ?? {})) {
    const at = folder.lastIndexOf("node_modules/");
    if (at < 0 || entry.version === undefined) continue;
    folders.add(folder);
    const key = `${folder.slice(at + "node_modules/".length)}@${entry.version}`;
    copies.set(key, [...(copies.get(key) ?? []), folder]);
  }
  for (const [key, same] of copies) {
    if (same.length < 2) continue;
    const version = key.slice(key.lastIndexOf("@") + 1);
    const installed = same.filter((folder) => installedVersion(folder) === version).sort();
    if (installed.length < 2) continue;
    for (const folder of installed) firstCopyOf.set(folder, installed[0]);
  }
  return { folders, firstCopyOf };
}

/**
 * One copy of each package at each version. npm nests a package under each dependent whose
 * version range the copy at the top does not meet: Express, body-parser and send each hold their
 * own mime-types 3.0.2 and mime-db 1.54.0, because Prism's 2.x sits at the top. The copies are
 * the same files, which a bundle would carry, load and run once per copy (mime-db's table of
 * media types is 200 KB). An import that resolves into a copy takes the first of that version's
 * copies in the lockfile's order, as one `npm dedupe` would install it if it could.
 */
const oneCopyOfEachVersion = {
  name: "one-copy-of-each-version",
  setup(build) {
    const { folders, firstCopyOf } = installedPackages();
    /** The installed package a file belongs to: the deepest package folder that holds it. */
    const packageOf = (relative) => {
      for (let end = relative.lastIndexOf("/node_modules/"); end >= 0; ) {
        const start = end + "/node_modules/".length;
        const name = relative
          .slice(start)
          .split("/", relative[start] === "@" ? 2 : 1)
          .join("/");
        const folder = relative.slice(0, start + name.length);
        if (folders.has(folder)) return folder;
        end = relative.lastIndexOf("/node_modules/", end - 1);
      }
      const top = relative.split("/", relative.startsWith("node_modules/@") ? 3 : 2).join("/");
      return folders.has(top) ? top : undefined;
    };
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.oneCopy) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { oneCopy: true },
      });
      // esbuild's own resolution reports what this one could not resolve (or leaves it to run time).
      if (resolved.errors.length > 0) return undefined;
      if (!path.isAbsolute(resolved.path)) return resolved;
      const relative = path.relative(repoRoot, resolved.path).split(path.sep).join("/");
      const folder = packageOf(relative);
      const first = folder && firstCopyOf.get(folder);
      if (!first || first === folder) return resolved;
      return { ...resolved, path: path.join(repoRoot, first, relative.slice(folder.length)) };
    });
  },
};

/**
 * Bundles `entry` into `outfile` and returns the files it was built from. The bundle must sit two
 * directories below the package root, as every source file does: the sources find generated/ and
 * docs/ by URLs relative to themselves. Identifiers are kept, so that stack traces stay readable.
 * `format: "cjs"` makes a CommonJS bundle, which Node starts without its ES module loader.
 */
export async function bundleForNode(entry, outfile, { format = "esm" } = {}) {
  const depth = path.relative(repoRoot, path.dirname(outfile)).split(path.sep).length;
  if (depth !== 2) throw new Error(`${outfile} must sit two directories below ${repoRoot}`);
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    platform: "node",
    format,
    target: ["node20"],
    minifyWhitespace: true,
    minifySyntax: true,
    // Its ES module build, whose unused hash functions the bundle leaves out (its CommonJS main holds them all).
    alias: { "hash-wasm": "./node_modules/hash-wasm/dist/index.esm.js" },
    plugins: [oneCopyOfEachVersion, unicodeOnlyIconv],
    // A native addon (.node) cannot be bundled: it is required from node_modules at run time.
    external: ["@node-rs/argon2"],
    ...(format === "esm"
      ? // CommonJS dependencies call require(); an ES module has none of its own.
        {
          banner: {
            js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
          },
        }
      : // A CommonJS bundle has no import.meta: the sources' URLs relative to themselves start from its file.
        {
          define: { "import.meta.url": "__bundleUrl" },
          banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
        }),
    metafile: true,
    logLevel: "warning",
  });
  const [output] = result.outputFiles;
  requireAscii(outfile, output.contents);
  writeAtomically(outfile, output.contents);
  return Object.keys(result.metafile.inputs).map((input) => path.resolve(repoRoot, input));
}

/** What a bundle was built from: each input's size and modification time, and the lockfile's hash. */
function fingerprint(inputs) {
  const files = inputs.map((file) => {
    const { size, mtimeMs } = statSync(file, { throwIfNoEntry: false }) ?? { size: -1, mtimeMs: -1 };
    return [file, size, mtimeMs];
  });
  const lockfile = createHash("sha256")
    .update(readFileSync(path.join(repoRoot, "package-lock.json")))
    .digest("hex");
  return { lockfile, files };
}

/**
 * The path of an up-to-date bundle of `entry`, rebuilt (about a second) only when a file it was
 * built from changed, or the lockfile did.
 */
export async function freshBundle(entry, outfile, options = {}) {
  const recordFile = `${outfile}.inputs.json`;
  try {
    const record = JSON.parse(readFileSync(recordFile, "utf8"));
    const current = fingerprint(record.files.map(([file]) => file));
    if (JSON.stringify(current) === JSON.stringify(record)) return outfile;
  } catch {
    // No bundle yet, or an unreadable record: build it.
  }
  const inputs = await bundleForNode(entry, outfile, options);
  writeAtomically(recordFile, JSON.stringify(fingerprint(inputs)));
  return outfile;
}
