import { execFile, execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { writeConsumerProject } from "./consumer-lockfile.ts";

// Packs the library as `npm pack` does, installs the tarball with npm into a fresh TypeScript
// project and compiles and runs code against it there; then installs it from a git URL, which
// builds dist/ in npm's clone (the `prepare` script). Both start from copies of this checkout,
// so the repository's own dist/ is left alone. npm works offline, from the cache `npm ci` filled.
// The two installs are independent and mostly wait on the file system: they run side by side.

const tsc = path.join(repoRoot, "node_modules", ".bin", "tsc");
const quietEnv = {
  ...process.env,
  NO_COLOR: "1",
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

const run = promisify(execFile);

let workDir: string;
let consumerDir: string;
let gitConsumerDir: string;
let packedFiles: string[];

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
}

/** What `npm pack` reads: the manifest, the build's inputs and the files the manifest ships. */
const packInputs = [
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "src",
  "bin",
  "generated",
  "docs/index.html",
  "README.md",
  "LICENSE",
  // build:lib bundles the command line with these.
  "scripts/bundle-cli.mjs",
  "scripts/bundle-sources.mjs",
  "scripts/code-cache.mjs",
];

async function packLibrary(): Promise<{ tarball: string; files: string[] }> {
  const stageDir = path.join(workDir, "stage");
  mkdirSync(stageDir);
  for (const entry of packInputs) {
    cpSync(path.join(repoRoot, entry), path.join(stageDir, entry), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(stageDir, "node_modules"), "dir");
  // `npm pack` runs the prepare script, which builds dist/ with tsconfig.build.json.
  const { stdout: output } = await run("npm", ["pack", "--json", "--pack-destination", workDir], {
    cwd: stageDir,
    env: quietEnv,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(output.slice(output.indexOf("["))) as [
    { filename: string; files: { path: string }[] },
  ];
  return {
    tarball: path.join(workDir, packed.filename),
    files: packed.files.map((file) => file.path).sort(),
  };
}

/** `npm ci` of a consumer project that depends on payreq from `spec`. */
async function installConsumer(dir: string, spec: string): Promise<void> {
  writeConsumerProject(dir, spec);
  await run("npm", ["ci"], { cwd: dir, env: quietEnv, maxBuffer: 64 * 1024 * 1024 });
}

const compilerOptions = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM"],
  types: [],
  strict: true,
  skipLibCheck: false,
  outDir: "out",
};

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

// Each line below must be refused by tsc; the test checks the line, column and error code.
const badSource = `import { createPayreqClient } from "payreq";
const client = createPayreqClient({ baseUrl: "https://api.payreq.test", apiKey: "k" });
await client.GET("/v1/nope", {});
await client.POST("/v2/secure-payments", { body: { requests: "USDC" } });
await client.GET("/v2/request/{requestId}/pay", {});
createPayreqClient({ baseUrl: "https://api.payreq.test", apiKey: "k", clientId: "c", origin: "https://a.example" });
`;

/** The tarball `npm pack` makes, installed into a TypeScript project with a good and a bad source. */
async function preparePackedConsumer(): Promise<void> {
  consumerDir = path.join(workDir, "consumer");
  mkdirSync(consumerDir);
  const { tarball, files } = await packLibrary();
  packedFiles = files;
  copyFileSync(tarball, path.join(consumerDir, "payreq.tgz"));
  await installConsumer(consumerDir, "file:payreq.tgz");
  writeFiles(consumerDir, {
    "tsconfig.json": JSON.stringify({ compilerOptions, files: ["good.ts"] }),
    "tsconfig.bad.json": JSON.stringify({
      compilerOptions: { ...compilerOptions, noEmit: true },
      files: ["bad.ts"],
    }),
    "good.ts": goodSource,
    "bad.ts": badSource,
  });
}

/** A project that installs payreq from a git repository holding this checkout's files as they are now, committed or not. */
async function prepareGitConsumer(): Promise<void> {
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
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=payreq test", "-c", "user.email=test@payreq.invalid", ...args], {
      cwd: gitDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  git("init", "--quiet");
  git("add", "--all");
  git("commit", "--quiet", "--no-gpg-sign", "--message", "snapshot");
  const commit = git("rev-parse", "HEAD").trim();
  gitConsumerDir = path.join(workDir, "git-consumer");
  mkdirSync(gitConsumerDir);
  // npm clones it, installs its dependencies, runs `prepare` (the library build) and packs it.
  await installConsumer(gitConsumerDir, `git+file://${gitDir}#${commit}`);
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "payreq-consumer-"));
  await Promise.all([preparePackedConsumer(), prepareGitConsumer()]);
}, 600_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function compile(project: string) {
  const result = spawnSync(tsc, ["-p", project, "--pretty", "false"], { cwd: consumerDir, encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the packed package in a consumer project", () => {
  it("ships the built library and CLI, the generated spec, types, page and config validator, and nothing else", () => {
    expect(packedFiles).toContain("dist/index.js");
    expect(packedFiles).toContain("dist/index.d.ts");
    expect(packedFiles).toContain("dist/client/create-client.js");
    expect(packedFiles).toContain("dist/cli/main.js");
    // The command line's bundle and the V8 code cache its start-up compiles from.
    expect(packedFiles).toContain("dist/cli/main.cjs");
    expect(packedFiles).toContain("dist/cli/main.cjs.v8-cache");
    expect(packedFiles.filter((file) => !file.startsWith("dist/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/payreq.mjs",
      "docs/index.html",
      "generated/openapi.json",
      "generated/page/secure-payment.css",
      "generated/page/secure-payment.js",
      "generated/sandbox-config-validator.cjs",
      "generated/schema.d.ts",
      "package.json",
    ]);
  });

  it("runs the payreq command of the installed package, from its compiled CLI", () => {
    const version = execFileSync(path.join(consumerDir, "node_modules", ".bin", "payreq"), ["--version"], {
      cwd: consumerDir,
      encoding: "utf8",
    });
    expect(version).toBe("0.1.0\n");
  });

  it("compiles correct usage with strict settings and no @types/node", () => {
    expect(compile("tsconfig.json")).toEqual({ status: 0, output: "" });
  });

  it("reports a wrong path, a wrong body, a missing parameter and mixed credentials", () => {
    const { status, output } = compile("tsconfig.bad.json");
    expect(status).toBe(2);
    const errors = [...output.matchAll(/^bad\.ts\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)].map(
      ([, line, column, code, message]) => ({ at: `${line}:${column}`, code, message }),
    );
    expect(errors.map(({ at, code }) => `${at} ${code}`)).toEqual([
      "3:18 TS2345",
      "4:52 TS2322",
      "5:49 TS2345",
      "6:20 TS2345",
    ]);
    const [wrongPath, wrongBody, missingParameter, mixedCredentials] = errors.map(({ message }) => message);
    expect(wrongPath).toContain(
      `Argument of type '"/v1/nope"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'`,
    );
    expect(wrongBody).toContain(
      "Type 'string' is not assignable to type '({ payee?: string | undefined; amount: string;",
    );
    expect(missingParameter).toContain(
      "Argument of type '{}' is not assignable to parameter of type '{ params: {",
    );
    expect(mixedCredentials).toContain("is not assignable to parameter of type 'PayreqClientOptions'");
  });

  it("runs the emitted JavaScript in node: a typed call, an ApiError and a normaliser", () => {
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

describe("payreq installed from a git URL", () => {
  it("builds dist/ on install, so that importing payreq works", () => {
    expect(existsSync(path.join(gitConsumerDir, "node_modules", "payreq", "dist", "index.js"))).toBe(true);
    const output = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "--eval",
        'import { createPayreqClient, signWebhook } from "payreq"; console.log(typeof createPayreqClient, typeof signWebhook);',
      ],
      { cwd: gitConsumerDir, encoding: "utf8" },
    );
    expect(output).toBe("function function\n");
  });
});

describe("payreq inside this checkout", () => {
  it("imports by its own name once npm ci has run (its prepare step builds dist/)", () => {
    const built = existsSync(path.join(repoRoot, "dist", "index.js"));
    expect(built, "dist/index.js is missing: run npm ci (or npm run build:lib)").toBe(true);
    const output = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "--eval",
        'import { createPayreqClient } from "payreq"; console.log(typeof createPayreqClient);',
      ],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(output).toBe("function\n");
  });
});
