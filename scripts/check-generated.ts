import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildAll, generatedFiles } from "./build-steps.ts";
import { repoRoot } from "./run-tool.ts";

/** Rebuilds into a scratch folder and lists the committed files that differ from a fresh build. */
export function findStaleGeneratedFiles(): string[] {
  const scratch = mkdtempSync(path.join(tmpdir(), "payreq-build-"));
  try {
    buildAll(scratch);
    return Object.values(generatedFiles).filter((relative) => {
      const fresh = readFileSync(path.join(scratch, relative));
      let committed: Buffer;
      try {
        committed = readFileSync(path.join(repoRoot, relative));
      } catch {
        return true;
      }
      return !fresh.equals(committed);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// pathToFileURL escapes the path as import.meta.url does (a space in the checkout path, say).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const stale = findStaleGeneratedFiles();
  if (stale.length > 0) {
    console.error(`Out of date: ${stale.join(", ")}. Run \`npm run build\` and commit the result.`);
    process.exit(1);
  }
  console.log("Generated files are up to date.");
}
