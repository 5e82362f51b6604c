import { mkdirSync } from "node:fs";
import path from "node:path";
import { pageAssetFolder, pageAssets } from "../src/page/page-assets.ts";
import { readSpecFile } from "../src/spec/spec-document.ts";
import { buildConfigValidator } from "./build-config-validator.ts";
import { buildPage } from "./build-page.ts";
import { repoRoot, runToolOrThrow } from "./run-tool.ts";

const specEntry = path.join(repoRoot, "openapi", "openapi.yaml");

/** The files the build writes, relative to an output root. */
export const generatedFiles = {
  bundledSpec: "generated/openapi.json",
  types: "generated/schema.d.ts",
  docs: "docs/index.html",
  pageScript: `${pageAssetFolder}/${pageAssets.script}`,
  pageStyle: `${pageAssetFolder}/${pageAssets.style}`,
  configValidator: "generated/sandbox-config-validator.cjs",
  configValidatorTypes: "generated/sandbox-config-validator.d.cts",
} as const;

function outputPath(outputRoot: string, relative: string): string {
  const target = path.join(outputRoot, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  return target;
}

/** Bundles the multi-file spec into one JSON document with internal references only. */
export function bundleSpec(outputRoot: string): string {
  const target = outputPath(outputRoot, generatedFiles.bundledSpec);
  runToolOrThrow("redocly", ["bundle", specEntry, "--output", target, "--ext", "json"]);
  return target;
}

/** Generates TypeScript types from the bundled spec. */
export function generateTypes(outputRoot: string, bundledSpec: string): string {
  const target = outputPath(outputRoot, generatedFiles.types);
  runToolOrThrow(
    "openapi-typescript",
    [
      bundledSpec,
      "--output",
      target,
      "--root-types",
      "--root-types-no-schema-prefix",
      // A member with a default may be left out of a request body: keep it optional in the types.
      "--default-non-nullable",
      "false",
    ],
    // From the bundled spec's folder, where no redocly.yaml is: openapi-typescript then checks the
    // spec with Redocly's minimal rules only, instead of linting it all again with the
    // repository's (`npm run lint:spec` and test/spec/lint.test.ts do), a second a build.
    { cwd: path.dirname(bundledSpec) },
  );
  return target;
}

/** Renders the reference docs as one self-contained HTML file that works offline. */
export function buildDocs(outputRoot: string, bundledSpec: string): string {
  const target = outputPath(outputRoot, generatedFiles.docs);
  runToolOrThrow("redocly", [
    "build-docs",
    bundledSpec,
    "--inlineBundle",
    "--output",
    target,
    "--title",
    "Payment Request Service API reference",
  ]);
  return target;
}

/** Runs every build step into `outputRoot` (the repository itself by default). */
export function buildAll(outputRoot: string = repoRoot): void {
  const bundledSpec = bundleSpec(outputRoot);
  generateTypes(outputRoot, bundledSpec);
  buildDocs(outputRoot, bundledSpec);
  buildPage(outputRoot);
  buildConfigValidator(
    {
      code: outputPath(outputRoot, generatedFiles.configValidator),
      types: outputPath(outputRoot, generatedFiles.configValidatorTypes),
    },
    readSpecFile(bundledSpec),
  );
}
