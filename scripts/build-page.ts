import path from "node:path";
import { buildSync } from "esbuild";
import { pageAssetFolder, pageAssets } from "../src/page/page-assets.ts";
import { repoRoot } from "./run-tool.ts";

const entry = (file: string) => path.join(repoRoot, "src", "page", file);
const stem = (file: string) => file.replace(/\.(js|css)$/, "");

/**
 * Bundles the hosted payment page (src/page, with the chain tables, ABIs and viem it uses) into
 * one script and one style sheet under `<outputRoot>/generated/page`. Minified, without source
 * maps or paths, so the output depends on the sources only and is byte-stable.
 */
export function buildPage(outputRoot: string): string[] {
  const outdir = path.join(outputRoot, pageAssetFolder);
  buildSync({
    absWorkingDir: repoRoot,
    entryPoints: [
      { in: entry("main.ts"), out: stem(pageAssets.script) },
      { in: entry("styles.css"), out: stem(pageAssets.style) },
    ],
    outdir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    charset: "utf8",
    legalComments: "eof",
    sourcemap: false,
    logLevel: "silent",
  });
  return [pageAssets.script, pageAssets.style].map((file) => path.join(outdir, file));
}
