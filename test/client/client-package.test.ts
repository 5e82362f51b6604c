import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { nativeTypeScriptCompiler } from "../../scripts/typescript-native.mjs";
import { cacheWithScratchSpace, makeScratchDirectory } from "../support/scratch-directory.ts";
import { consumerCompilerOptions, quietEnv, sharedNpmCache } from "./consumer-settings.ts";

// `npm run pack:client` packs @payreq/client; a project that installs only that tarball (from npm's
// cache, offline, with the dependencies this repository's lockfile pins) type-checks and runs a call.

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const tarballName = `payreq-client-${manifest.version}.tgz`;

let workDir: string;
let consumerDir: string;

/** package.json and package-lock.json of a project depending on the tarball alone. */
function writeClientConsumer(dir: string): void {
  const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dependencies?: Record<string, string> }>;
  };
  const tarball = readFileSync(path.join(dir, tarballName));
  const spec = `file:${tarballName}`;
  const packages: Record<string, unknown> = {
    "": { name: "client-consumer", dependencies: { "@payreq/client": spec } },
    "node_modules/@payreq/client": {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      license: manifest.license,
      dependencies: {
        "openapi-fetch": manifest.dependencies["openapi-fetch"],
        ulid: manifest.dependencies.ulid,
      },
    },
  };
  const pending = ["openapi-fetch", "ulid"];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const key = `node_modules/${name}`;
    if (packages[key] || !lock.packages[key]) continue;
    packages[key] = lock.packages[key];
    pending.push(...Object.keys(lock.packages[key].dependencies ?? {}));
  }
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "client-consumer",
      private: true,
      type: "module",
      dependencies: { "@payreq/client": spec },
    }),
  );
  writeFileSync(
    path.join(dir, "package-lock.json"),
    JSON.stringify({ name: "client-consumer", lockfileVersion: 3, requires: true, packages }),
  );
}

/** The bytes of every file under `dir`. */
function sizeOf(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

const callSource = `import { ApiError, createPayreqClient, unwrap, verifyWebhookSignature, type Currency } from "@payreq/client";

const client = createPayreqClient({
  baseUrl: "https://api.payreq.test",
  apiKey: "sk_test_123",
  fetch: async (request) =>
    request.url.endsWith("/v1/currencies?network=base")
      ? new Response(JSON.stringify([{ id: "USDC-base", name: "USD Coin", symbol: "USDC", decimals: 6, network: "base", type: "ERC20", chainId: 8453, address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", hash: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }]), { status: 200, headers: { "content-type": "application/json" } })
      : new Response(JSON.stringify({ type: "/problems/not-found", title: "Not found", status: 404, detail: "none" }), { status: 404, headers: { "content-type": "application/problem+json" } }),
});
const currencies: Currency[] | Currency = unwrap(await client.GET("/v1/currencies", { params: { query: { network: "base" } } }));
let status = 0;
try {
  unwrap(await client.GET("/v2/request/{requestId}", { params: { path: { requestId: "r" } } }));
} catch (error) {
  if (error instanceof ApiError) status = error.status;
}
const verified = verifyWebhookSignature({ secret: "whsec_x", rawBody: new TextEncoder().encode("{}"), signature: "00" });
console.log(JSON.stringify({ ids: (Array.isArray(currencies) ? currencies : [currencies]).map((c) => c.id), status, verified }));
`;

beforeAll(async () => {
  workDir = makeScratchDirectory("payreq-client-package-");
  consumerDir = path.join(workDir, "consumer");
  mkdirSync(consumerDir);
  await run(
    process.execPath,
    [path.join(repoRoot, "scripts", "pack-client.mjs"), "--pack-destination", consumerDir],
    {
      cwd: repoRoot,
      env: quietEnv,
    },
  );
  writeClientConsumer(consumerDir);
  await run("npm", ["ci"], {
    cwd: consumerDir,
    env: {
      ...quietEnv,
      npm_config_cache: cacheWithScratchSpace(sharedNpmCache(), workDir),
    },
  });
}, 300_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("@payreq/client installed alone", () => {
  it("brings openapi-fetch and ulid only, in at most 15 MB", () => {
    const modules = path.join(consumerDir, "node_modules");
    const installed = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== ".bin")
      .flatMap((entry) =>
        entry.name.startsWith("@")
          ? readdirSync(path.join(modules, entry.name)).map((name) => `${entry.name}/${name}`)
          : [entry.name],
      )
      .sort();
    expect(installed).toEqual(["@payreq/client", "openapi-fetch", "openapi-typescript-helpers", "ulid"]);
    expect(sizeOf(modules)).toBeLessThanOrEqual(15 * 1024 * 1024);
  });

  it("type-checks and runs a typed call, an ApiError and a webhook check with TypeScript 7's strict settings", async () => {
    writeFileSync(path.join(consumerDir, "call.ts"), callSource);
    writeFileSync(
      path.join(consumerDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: consumerCompilerOptions,
        files: ["call.ts"],
      }),
    );
    const compiled = await run(
      process.execPath,
      [nativeTypeScriptCompiler, "-p", "tsconfig.json", "--pretty", "false"],
      {
        cwd: consumerDir,
      },
    ).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe("");
    const { stdout } = await run(process.execPath, [path.join("out", "call.js")], { cwd: consumerDir });
    expect(JSON.parse(stdout)).toEqual({ ids: ["USDC-base"], status: 404, verified: false });
  });
});
