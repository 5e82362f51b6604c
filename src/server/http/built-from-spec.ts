import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** Each spec file's SHA-256, read and hashed once per process and file. */
const specFileHashes = new Map<string, string>();

/** Whether `npm run build` compiled its schemas from this very file: the file's SHA-256 is `specSha256`. */
export function builtFromSpecFile(specFile: string, specSha256: string): boolean {
  let hash = specFileHashes.get(specFile);
  if (hash === undefined) {
    hash = createHash("sha256").update(readFileSync(specFile)).digest("hex");
    specFileHashes.set(specFile, hash);
  }
  return hash === specSha256;
}
