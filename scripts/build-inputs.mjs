// What `npm run build:lib` builds dist/ from, as one SHA-256: a change to any of it means a rebuild.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folders whose every file goes into dist/ (compiled, bundled or read by the bundle at build time). */
const inputFolders = ["src", "generated"];
/** Single files the build reads: its settings, the dependencies' versions and the build's own scripts. */
const inputFiles = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "tsconfig.testing-types.json",
  "scripts/build-lib.mjs",
  "scripts/build-inputs.mjs",
  "scripts/bundle-cli.mjs",
  "scripts/bundle-sources.mjs",
  "scripts/typescript-native.mjs",
];

function filesUnder(root, folder) {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/** The hash of every build input's path and bytes under `root`. */
export function hashBuildInputs(root) {
  const hash = createHash("sha256");
  const files = [...inputFolders.flatMap((folder) => filesUnder(root, folder)), ...inputFiles].sort();
  for (const file of files) {
    const bytes = readFileSync(path.join(root, file));
    hash.update(`${file} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest("hex");
}
