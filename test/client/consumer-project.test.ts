import { execFile, execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { nativeTypeScriptCompiler } from "../../scripts/typescript-native.mjs";
import { guideBlocks } from "../support/compile-guide-snippets.ts";
import { cacheWithScratchSpace, makeScratchDirectory } from "../support/scratch-directory.ts";
import { writeConsumerProject } from "./consumer-lockfile.ts";
import { consumerCompilerOptions, quietEnv, sharedNpmCache } from "./consumer-settings.ts";

// Installs payreq as a project that depends on it from a git URL does: npm clones a repository
// holding this checkout's files as they are now, installs its dependencies, runs `prepare` (the
// library build), packs the clone by the manifest's `files` and installs that tarball. One install
// covers the build, the packing and the installed package; the project then compiles and runs code
// against it. npm works offline, from the cache `npm ci` filled.

/**
 * The consumer's sources are compiled by both compilers the repository has. TypeScript 7, what a
 * new project installs, also checks every declaration file it reads (skipLibCheck off) and emits
 * good.js. TypeScript 5.9 stands for projects still on 5.x: the declarations TypeScript 7 wrote
 * must serve them too; it skips the check of declaration files, which took four times as long.
 */
const compilers = {
  "TypeScript 7": { tsc: nativeTypeScriptCompiler, args: [] },
  "TypeScript 5.9": {
    tsc: path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
    args: ["--skipLibCheck", "--noEmit"],
  },
};
type CompilerName = keyof typeof compilers;

/**
 * What `prepare` (`npm run build:lib`) needs besides the dependencies: the compiler, the bundler
 * and the type packages the sources compile against. The snapshot's manifest lists only these
 * development dependencies, so the clone installs the build's tools rather than the whole test
 * toolchain (Prism, Redocly, Chromium's driver...), which npm would install only to leave unused.
 */
const buildTools = [
  "typescript-native",
  "esbuild",
  "@types/node",
  "@types/express",
  "@types/pg",
  "@types/morgan",
];

const run = promisify(execFile);

let workDir: string;
let consumerDir: string;
let installedFiles: string[];

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
}

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * `npm ci` of a consumer project that depends on payreq from `spec`, with npm's scratch space (where
 * it clones and builds a git dependency) in `scratch` (cacheWithScratchSpace).
 */
async function installConsumer(dir: string, spec: string, scratch: string): Promise<void> {
  writeConsumerProject(dir, spec);
  await run("npm", ["ci"], {
    cwd: dir,
    env: { ...quietEnv, npm_config_cache: cacheWithScratchSpace(sharedNpmCache(), scratch) },
    maxBuffer: 64 * 1024 * 1024,
  });
}

const goodSource = `import { ApiError, createPayreqClient, transactionValueToBigInt, unwrap, type Currency } from "payreq";

const usdcBase = {
  id: "USDC-base", name: "USD Coin", symbol: "USDC", decimals: 6, network: "base", type: "ERC20", chainId: 8453,
  address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", hash: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
};
const sent: string[] = [];
const client = createPayreqClient({
  baseUrl: "https://api.payreq.test",
  apiKey: "sk_test_123",
  fetch: async (request) => {
    sent.push(request.method + " " + request.url + " " + request.headers.get("x-api-key"));
    if (request.url.endsWith("/v1/currencies?network=base")) {
      return new Response(JSON.stringify([usdcBase]), { status: 200, headers: { "content-type": "application/json" } });
    }
    const problem = { type: "/problems/not-found", title: "Not found", status: 404, detail: "No currency USD-base." };
    return new Response(JSON.stringify(problem), {
      status: 404,
      headers: { "content-type": "application/problem+json", "x-request-id": "req-1" },
    });
  },
});

const currencies: Currency[] | Currency = unwrap(await client.GET("/v1/currencies", { params: { query: { network: "base" } } }));
const ids = (Array.isArray(currencies) ? currencies : [currencies]).map((currency) => currency.id);
let failure: unknown;
try {
  unwrap(await client.GET("/v1/currencies", { params: { query: { id: "USD-base" } } }));
} catch (error) {
  failure = error;
}
const notFound = failure instanceof ApiError ? [failure.status, failure.type, failure.requestId] : [];
const wei = transactionValueToBigInt({ type: "BigNumber", hex: "0x2386f26fc10000" }).toString();
console.log(JSON.stringify({ sent, ids, notFound, wei }));
`;

// payreq/testing's declarations, used as a test suite would: they must compile cleanly too.
const testingSource = `import { type CapturedWebhook, type Sandbox, startSandbox } from "payreq/testing";

export async function paidWebhook(): Promise<CapturedWebhook> {
  const sandbox: Sandbox = await startSandbox({ config: { strictBodies: true } });
  try {
    await sandbox.clock.advance(60);
    await sandbox.trigger("payment.confirmed", { amount: "1" });
    return await sandbox.webhooks.waitFor((delivery) => delivery.event === "payment.confirmed", { timeoutMs: 5000 });
  } finally {
    await sandbox.stop();
  }
}
`;

// Each line below must be refused by tsc; the test checks the line, column and error code.
const badSource = `import { createPayreqClient } from "payreq";
const client = createPayreqClient({ baseUrl: "https://api.payreq.test", apiKey: "k" });
await client.GET("/v1/nope", {});
await client.POST("/v2/secure-payments", { body: { requests: "USDC" } });
await client.GET("/v2/request/{requestId}/pay", {});
createPayreqClient({ baseUrl: "https://api.payreq.test", apiKey: "k", clientId: "c", origin: "https://a.example" });
`;

/**
 * A git repository of this checkout's files as they are now, committed or not, whose manifest
 * keeps only the build's development dependencies (buildTools). Returns its git URL.
 */
function snapshotRepository(): string {
  const gitDir = path.join(workDir, "payreq.git");
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  for (const file of listed
    .split("\0")
    .filter((name) => name !== "" && existsSync(path.join(repoRoot, name)))) {
    mkdirSync(path.dirname(path.join(gitDir, file)), { recursive: true });
    copyFileSync(path.join(repoRoot, file), path.join(gitDir, file));
  }
  const manifestPath = path.join(gitDir, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const missing = buildTools.filter((name) => manifest.devDependencies[name] === undefined);
  if (missing.length > 0)
    throw new Error(`buildTools names no development dependency: ${missing.join(", ")}`);
  manifest.devDependencies = Object.fromEntries(
    Object.entries(manifest.devDependencies).filter(([name]) => buildTools.includes(name)),
  );
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=payreq test", "-c", "user.email=test@payreq.invalid", ...args], {
      cwd: gitDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  git("init", "--quiet");
  git("add", "--all");
  git("commit", "--quiet", "--no-gpg-sign", "--message", "snapshot");
  return `git+file://${gitDir}#${git("rev-parse", "HEAD").trim()}`;
}

beforeAll(async () => {
  // Two installs write some 36,000 files (viem's 10,500 twice), all deleted afterwards.
  workDir = makeScratchDirectory("payreq-consumer-");
  consumerDir = path.join(workDir, "consumer");
  mkdirSync(consumerDir);
  // npm clones it, installs its dependencies, runs `prepare` (the library build) and packs it.
  await installConsumer(consumerDir, snapshotRepository(), workDir);
  installedFiles = listFiles(path.join(consumerDir, "node_modules", "payreq"));
  writeFiles(consumerDir, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: consumerCompilerOptions,
      files: ["good.ts", "testing.ts", "bad.ts"],
    }),
    "good.ts": goodSource,
    "testing.ts": testingSource,
    "bad.ts": badSource,
  });
  const names = Object.keys(compilers) as CompilerName[];
  const results = await Promise.all(names.map((name) => compile(name)));
  compiled = Object.fromEntries(names.map((name, index) => [name, results[index]])) as typeof compiled;
}, 600_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** One run of a compiler over both sources: good.ts must compile cleanly, bad.ts must not. */
async function compile(name: CompilerName) {
  const { tsc, args } = compilers[name];
  const { status, output } = await run(
    process.execPath,
    [tsc, "-p", "tsconfig.json", "--pretty", "false", ...args],
    {
      cwd: consumerDir,
      encoding: "utf8",
    },
  ).then(
    ({ stdout, stderr }) => ({ status: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      status: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  const errors = [...output.matchAll(/^(\w+)\.ts\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)].map(
    ([, file, line, column, code, message]) => ({ file, at: `${line}:${column}`, code, message }),
  );
  return { status, output, errors };
}

let compiled: Record<CompilerName, Awaited<ReturnType<typeof compile>>>;

/** What `typeof` gives for each named export of `payreq`, imported by its name from a module run in `dir`. */
function typesOfExports(dir: string, names: string[]): string {
  const source = `import { ${names.join(", ")} } from "payreq"; console.log(${names.map((name) => `typeof ${name}`).join(", ")});`;
  return execFileSync(process.execPath, ["--input-type=module", "--eval", source], {
    cwd: dir,
    encoding: "utf8",
  });
}

describe("payreq installed from a git URL into a consumer project", () => {
  it("holds the built library and CLI, the generated spec, types, page, configuration validator and migrations, and nothing else", () => {
    expect(installedFiles).toContain("dist/index.js");
    expect(installedFiles).toContain("dist/index.d.ts");
    expect(installedFiles).toContain("dist/client/create-client.js");
    // The command: the command line and its dependencies in one CommonJS bundle.
    expect(installedFiles).toContain("dist/cli/main.cjs");
    // The server and the command line run from that bundle alone: tsc compiles only what the
    // library's entries import.
    expect(installedFiles.filter((file) => file.startsWith("dist/server/"))).toEqual([]);
    // payreq/testing: the server in one ES module bundle, and declarations naming only the spec's types.
    expect(installedFiles.filter((file) => file.startsWith("dist/testing/"))).toEqual([
      "dist/testing/index.d.ts",
      "dist/testing/index.js",
      "dist/testing/sandbox-types.d.ts",
      "dist/testing/start-sandbox.d.ts",
    ]);
    expect(installedFiles.filter((file) => file.startsWith("dist/cli/"))).toEqual(["dist/cli/main.cjs"]);
    expect(installedFiles.filter((file) => !file.startsWith("dist/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/payreq.cjs",
      "docs/index.html",
      "generated/openapi.json",
      "generated/page/secure-payment.css",
      "generated/page/secure-payment.js",
      "generated/sandbox-config-validator.cjs",
      "generated/schema.d.ts",
      ...readdirSync(path.join(repoRoot, "migrations"))
        .sort()
        .map((name) => `migrations/${name}`),
      "package.json",
    ]);
  });

  it("imports by its name, the client and the webhook helpers alike", () => {
    expect(typesOfExports(consumerDir, ["createPayreqClient", "signWebhook"])).toBe("function function\n");
  });

  it("runs the payreq command of the installed package, from its compiled CLI", () => {
    const version = execFileSync(path.join(consumerDir, "node_modules", ".bin", "payreq"), ["--version"], {
      cwd: consumerDir,
      encoding: "utf8",
    });
    expect(version).toBe("0.1.0\n");
  });

  it.each(Object.keys(compilers) as CompilerName[])(
    "compiles correct usage with strict settings and no @types/node (%s)",
    (name) => {
      // bad.ts is compiled beside it: every line tsc prints is one of bad.ts's errors or their details.
      const lines = compiled[name].output.split("\n").filter((line) => line !== "");
      expect(lines.filter((line) => !line.startsWith("bad.ts(") && !line.startsWith(" "))).toEqual([]);
    },
  );

  // TypeScript 7 names the missing member itself (TS2741) where 5.9 reports the argument (TS2345).
  const missingParameter = {
    "TypeScript 7": {
      code: "TS2741",
      message: "Property 'params' is missing in type '{}' but required in type '{ params: {",
    },
    "TypeScript 5.9": {
      code: "TS2345",
      message: "Argument of type '{}' is not assignable to parameter of type '{ params: {",
    },
  } satisfies Record<CompilerName, { code: string; message: string }>;

  it.each(Object.keys(compilers) as CompilerName[])(
    "reports a wrong path, a wrong body, a missing parameter and mixed credentials (%s)",
    (name) => {
      expect(compiled[name].status).toBe(2);
      const errors = compiled[name].errors.filter(({ file }) => file === "bad");
      expect(errors.map(({ at, code }) => `${at} ${code}`)).toEqual([
        "3:18 TS2345",
        "4:52 TS2322",
        `5:49 ${missingParameter[name].code}`,
        "6:20 TS2345",
      ]);
      const messages = errors.map(({ message }) => message);
      expect(messages[0]).toContain(
        `Argument of type '"/v1/nope"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'`,
      );
      expect(messages[1]).toContain(
        "Type 'string' is not assignable to type '({ payee?: string | undefined; amount: string;",
      );
      expect(messages[2]).toContain(missingParameter[name].message);
      expect(messages[3]).toContain("is not assignable to parameter of type 'PayreqClientOptions'");
    },
  );

  it("emits good.js with TypeScript 7 and runs it in node: a typed call, an ApiError and a normaliser", () => {
    expect(existsSync(path.join(consumerDir, "out", "good.js"))).toBe(true);
    const output = execFileSync(process.execPath, [path.join("out", "good.js")], {
      cwd: consumerDir,
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual({
      sent: [
        "GET https://api.payreq.test/v1/currencies?network=base sk_test_123",
        "GET https://api.payreq.test/v1/currencies?id=USD-base sk_test_123",
      ],
      ids: ["USDC-base"],
      notFound: [404, "/problems/not-found", "req-1"],
      wei: "10000000000000000",
    });
  });
});

describe("payreq/testing installed in a consumer project", () => {
  it("runs the node:test example of docs/testing.md as written", () => {
    const [example] = guideBlocks("docs/testing.md", "js", "With node:test");
    writeFileSync(path.join(consumerDir, "sandbox.test.mjs"), example as string);
    const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", "sandbox.test.mjs"], {
      cwd: consumerDir,
      encoding: "utf8",
    });
    expect(run.stdout).toContain("ok 1 - a partial payment sends payment.partial");
    expect(run.stdout).toContain("# pass 1");
    expect(run.status).toBe(0);
  });

  it("runs the vitest example of docs/testing.md as written", () => {
    const [example] = guideBlocks("docs/testing.md", "ts", "With vitest");
    writeFileSync(path.join(consumerDir, "sandbox.test.ts"), example as string);
    // The consumer's own vitest: this repository's copy, linked where npm would install it.
    const linked = path.join(consumerDir, "node_modules", "vitest");
    if (!existsSync(linked)) symlinkSync(path.join(repoRoot, "node_modules", "vitest"), linked);
    const run = spawnSync(
      process.execPath,
      [path.join(linked, "vitest.mjs"), "run", "sandbox.test.ts", "--reporter=verbose", "--no-color"],
      { cwd: consumerDir, encoding: "utf8", env: { ...process.env, CI: "true" } },
    );
    expect(run.stdout).toContain("marks the order paid when the payment webhook arrives");
    expect(run.stdout).toContain("sees the 503 the service answers when it is unavailable, then succeeds");
    expect(run.stdout).toMatch(/Tests {2}2 passed \(2\)/);
    expect(run.status).toBe(0);
  });
});

describe("payreq inside this checkout", () => {
  it("imports by its own name once npm ci has run (its prepare step builds dist/)", () => {
    const built = existsSync(path.join(repoRoot, "dist", "index.js"));
    expect(built, "dist/index.js is missing: run npm ci (or npm run build:lib)").toBe(true);
    expect(typesOfExports(repoRoot, ["createPayreqClient"])).toBe("function\n");
  });
});
