import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CommandError } from "../cli-errors.ts";
import { readPackageJson } from "../package-root.ts";

const prismPackage = "@stoplight/prism-cli";

/** Prism's command-line script, run with this Node.js; resolved like an import from `fromFile`. */
export function findPrism(fromFile: string): string {
  let manifestFile: string;
  try {
    manifestFile = createRequire(fromFile).resolve(`${prismPackage}/package.json`);
  } catch {
    throw new CommandError(prismMissingMessage());
  }
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.prism;
  if (bin === undefined) throw new CommandError(`${manifestFile} names no prism executable`);
  return path.resolve(path.dirname(manifestFile), bin);
}

/** Says exactly how to install the pinned Prism (a development dependency of payreq). */
function prismMissingMessage(): string {
  const version = readPackageJson().devDependencies?.[prismPackage] ?? "5.14.2";
  return [
    `The mock needs Prism (${prismPackage}), which is not installed.`,
    "In a checkout of payreq, install the development dependencies:  npm ci",
    `Elsewhere, install it next to payreq:  npm install --save-dev ${prismPackage}@${version}`,
    "(Prism 5.15 and later need Node.js 24.)",
  ].join("\n");
}
