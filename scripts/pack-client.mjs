// `npm run pack:client -- [npm pack options]`: builds @payreq/client (the typed client, the spec's
// types, the errors and the webhook helpers, src/client-package/index.ts) from this repository's
// sources into .cache/client-package/, and packs it with `npm pack` and the options given, such
// as `--pack-destination DIR`. Its only dependencies are openapi-fetch and ulid, pinned as here.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./bundle-sources.mjs";
import { nativeTypeScriptCompiler } from "./typescript-native.mjs";

const stage = path.join(repoRoot, ".cache", "client-package");
const dependencies = ["openapi-fetch", "ulid"];

rmSync(stage, { recursive: true, force: true });
execFileSync(process.execPath, [nativeTypeScriptCompiler, "-p", "tsconfig.client-package.json"], {
  cwd: repoRoot,
  stdio: "inherit",
});

// What the compiled modules import from outside the package: Node's modules and the dependencies only.
const dist = path.join(stage, "dist");
const imported = new Set();
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".js")) continue;
  const code = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
  for (const [, specifier] of code.matchAll(/\bfrom\s+"([^"]+)"/g)) {
    if (!specifier.startsWith(".")) imported.add(specifier);
  }
}
const unexpected = [...imported].filter(
  (specifier) => !specifier.startsWith("node:") && !dependencies.includes(specifier),
);
if (unexpected.length > 0) {
  throw new Error(
    `@payreq/client would import ${unexpected.join(", ")}: only ${dependencies.join(", ")} may be`,
  );
}

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
mkdirSync(path.join(stage, "generated"), { recursive: true });
copyFileSync(path.join(repoRoot, "generated", "schema.d.ts"), path.join(stage, "generated", "schema.d.ts"));
copyFileSync(path.join(repoRoot, "LICENSE"), path.join(stage, "LICENSE"));
writeFileSync(
  path.join(stage, "README.md"),
  [
    "# @payreq/client",
    "",
    "The typed client of the Payment Request Service (Request API and Auth API), the OpenAPI spec's",
    "types, the errors, and the webhook helpers (verify, sign, receive) of payreq, without its",
    "server, command line or EVM code. Its only dependencies are openapi-fetch and ulid.",
    "",
    "```ts",
    'import { createPayreqClient, unwrap } from "@payreq/client";',
    "",
    'const client = createPayreqClient({ baseUrl: "https://api.request.network", apiKey: process.env.RN_API_KEY ?? "" });',
    'const currencies = unwrap(await client.GET("/v1/currencies", { params: { query: { network: "base" } } }));',
    "```",
    "",
  ].join("\n"),
);
writeFileSync(
  path.join(stage, "package.json"),
  `${JSON.stringify(
    {
      name: "@payreq/client",
      version: manifest.version,
      description: "Typed client, types, errors and webhook helpers of the Payment Request Service",
      license: manifest.license,
      type: "module",
      engines: manifest.engines,
      sideEffects: false,
      exports: {
        ".": { types: "./dist/client-package/index.d.ts", default: "./dist/client-package/index.js" },
        "./package.json": "./package.json",
      },
      main: "./dist/client-package/index.js",
      types: "./dist/client-package/index.d.ts",
      files: ["dist", "generated/schema.d.ts"],
      dependencies: Object.fromEntries(dependencies.map((name) => [name, manifest.dependencies[name]])),
    },
    null,
    2,
  )}\n`,
);
execFileSync("npm", ["pack", ...process.argv.slice(2)], { cwd: stage, stdio: "inherit" });
