// `npm run bench`: the reference server side by side with the Prism mock and bare Express, in one run.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../run-tool.ts";
import type { ChildServer } from "./child-server.ts";
import { median } from "./load.ts";
import { measureCreationRate, measureFirstRequest, measureThroughput, medianRate } from "./measure.ts";
import { formatTable, isMet, type TargetCheck } from "./report.ts";
import { startBareExpress, startCompiledServer, startPrismMock, startReferenceServer } from "./targets.ts";
import { batchOf100Payees, createSecurePayment, listCurrencies } from "./workloads.ts";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
// --quick checks that the benchmark runs; its numbers are too short-lived to compare.
const settings = values.quick
  ? { rounds: 1, seconds: 1, connections: 10, startups: 1, creationRecords: 2_000 }
  : { rounds: 3, seconds: 5, connections: 10, startups: 3, creationRecords: 50_000 };
const log = (line: string) => process.stderr.write(`${line}\n`);

async function withServer<T>(start: () => Promise<ChildServer>, use: (server: ChildServer) => Promise<T>) {
  const server = await start();
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

async function recordAnswer(server: ChildServer, request: typeof listCurrencies) {
  const answer = await fetch(server.baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: answer.status, body: await answer.text() };
}

async function startupTimes(start: () => Promise<ChildServer>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < settings.startups; run++) {
    times.push(await withServer(start, async (server) => server.startedInMs));
  }
  return times;
}

log("building the library for the compiled `payreq serve`…");
const build = spawnSync("npm", ["run", "--silent", "build:lib"], { cwd: repoRoot, stdio: "inherit" });
if (build.status !== 0) throw new Error("npm run build:lib failed");

log("throughput: reference server, Prism mock, bare Express…");
const operations = { "GET /v1/currencies": listCurrencies, "POST /v2/secure-payments": createSecurePayment };
const server = await startReferenceServer();
const prism = await startPrismMock();
let throughput: Awaited<ReturnType<typeof measureThroughput>>;
try {
  const answers = {
    [`GET ${listCurrencies.path}`]: await recordAnswer(server, listCurrencies),
    [`POST ${createSecurePayment.path}`]: await recordAnswer(server, createSecurePayment),
  };
  throughput = await withServer(
    () => startBareExpress(answers),
    (express) => measureThroughput({ server, prism, express }, operations, settings),
  );
} finally {
  await Promise.all([server.stop(), prism.stop()]);
}

log("start-up to the first answer…");
const startup = {
  npmStart: await startupTimes(startReferenceServer),
  compiledServe: await startupTimes(startCompiledServer),
  prism: await startupTimes(startPrismMock),
};

log("first requests and the 100-payee batch on a fresh server…");
const first = await withServer(startReferenceServer, async (fresh) => ({
  listCurrencies: await measureFirstRequest(fresh, listCurrencies, 30),
  createSecurePayment: await measureFirstRequest(fresh, createSecurePayment, 30),
  batchOf100Payees: await measureFirstRequest(fresh, batchOf100Payees, 20),
}));

log(`secure-payment creation at 0 and ${settings.creationRecords} records…`);
const creation = await withServer(startReferenceServer, (fresh) =>
  measureCreationRate(fresh, createSecurePayment, settings.creationRecords, {
    seconds: settings.seconds,
    connections: settings.connections,
  }),
);

const rate = (target: string, operation: string) => medianRate(throughput, target, operation);
const checks: TargetCheck[] = [];
for (const operation of Object.keys(operations)) {
  const serverRate = rate("server", operation);
  checks.push(
    {
      metric: `${operation}: server ÷ Prism`,
      value: serverRate / rate("prism", operation),
      unit: "×",
      comparison: ">=",
      target: 2,
    },
    {
      metric: `${operation}: server ÷ bare Express`,
      value: (100 * serverRate) / rate("express", operation),
      unit: "%",
      comparison: ">=",
      target: 60,
    },
  );
}
const slowestFirst = Math.max(
  ...Object.values(first).map((measured) => measured.firstMs / measured.medianMs),
);
checks.push(
  {
    metric: "`npm start` to first answer",
    value: median(startup.npmStart),
    unit: "ms",
    comparison: "<=",
    target: 1000,
  },
  {
    metric: "compiled `payreq serve` to first answer",
    value: median(startup.compiledServe),
    unit: "ms",
    comparison: "<=",
    target: 500,
  },
  {
    metric: "first request ÷ median (slowest operation)",
    value: slowestFirst,
    unit: "×",
    comparison: "<=",
    target: 2,
  },
  {
    metric: "100-payee batch payout (median)",
    value: first.batchOf100Payees.medianMs,
    unit: "ms",
    comparison: "<=",
    target: 10,
  },
  {
    metric: `secure-payment creation, cost at ${settings.creationRecords} records ÷ at 0`,
    value: creation.emptyPerSecond / creation.fullPerSecond,
    unit: "×",
    comparison: "<=",
    target: 1.2,
  },
);

const table = formatTable(checks);
const rates = Object.keys(operations).map(
  (operation) =>
    `${operation}: server ${Math.round(rate("server", operation))}, Prism ${Math.round(rate("prism", operation))}, bare Express ${Math.round(rate("express", operation))} req/s (medians)`,
);
console.log(`${table}\n\n${rates.join("\n")}`);

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" });
const results = {
  date: new Date().toISOString(),
  commit: commit.stdout.trim(),
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  },
  settings,
  checks: checks.map((check) => ({ ...check, met: isMet(check) })),
  throughput,
  startup,
  first,
  creation,
};
const folder = path.join(repoRoot, "bench-results");
mkdirSync(folder, { recursive: true });
const json = `${JSON.stringify(results, null, 2)}\n`;
if (!values.quick) writeFileSync(path.join(folder, "latest.json"), json);
writeFileSync(path.join(folder, `${results.date.replaceAll(":", "-")}.json`), json);
log(`wrote bench-results/latest.json`);
process.exit(checks.every(isMet) ? 0 : 1);
