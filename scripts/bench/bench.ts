// `npm run bench`: the reference server side by side with the Prism mock and bare Express, in one run.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../run-tool.ts";
import { measureChainDetection } from "./chain-detection.ts";
import type { ChildServer } from "./child-server.ts";
import { median } from "./load.ts";
import {
  type HostileBodyTimes,
  measureCreationCost,
  measureHostileBodies,
  measureThroughput,
  measureWarmLatency,
  medianRate,
  medianRatio,
  type WarmLatency,
} from "./measure.ts";
import { formatTable, isMet, type TargetCheck } from "./report.ts";
import {
  startBareExpress,
  startBareNodeHttp,
  startPrismMock,
  startReferenceServer,
  startReferenceServerWithChain,
} from "./targets.ts";
import { batchOf100Payees, createSecurePayment, hostileBodies, listCurrencies } from "./workloads.ts";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
// --quick checks that the benchmark runs; its numbers are too short-lived to compare.
const settings = values.quick
  ? {
      rounds: 1,
      seconds: 1,
      connections: 10,
      startups: 1,
      creationRecords: 2_000,
      creationRound: 200,
      creationWarmUp: 200,
      hostileRepeats: 1,
      warmBatches: { warm: 5, timed: 5 },
      chainPayments: 5,
      chainStartups: 1,
    }
  : {
      rounds: 7,
      seconds: 3,
      connections: 10,
      startups: 9,
      creationRecords: 50_000,
      creationRound: 1_000,
      creationWarmUp: 3_000,
      hostileRepeats: 5,
      warmBatches: { warm: 100, timed: 50 },
      chainPayments: 100,
      chainStartups: 3,
    };
const log = (line: string) => process.stderr.write(`${line}\n`);
// The machine is shared: its load around the run says how far the numbers can be trusted.
const loadAtStart = os.loadavg();

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

async function startupTimes(start: () => Promise<ChildServer>, runs = settings.startups): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    times.push(await withServer(start, async (server) => server.startedInMs));
  }
  return times;
}

log(
  "throughput: reference server, Prism mock, bare Express (with and without express-openapi-validator), bare node:http…",
);
const operations = { "GET /v1/currencies": listCurrencies, "POST /v2/secure-payments": createSecurePayment };
const server = await startReferenceServer();
const prism = await startPrismMock();
let throughput: Awaited<ReturnType<typeof measureThroughput>>;
let hostile: HostileBodyTimes;
let warmBatch: WarmLatency;
try {
  const answers = {
    [`GET ${listCurrencies.path}`]: await recordAnswer(server, listCurrencies),
    [`POST ${createSecurePayment.path}`]: await recordAnswer(server, createSecurePayment),
  };
  const baselines = {
    express: () => startBareExpress(answers),
    expressValidator: () => startBareExpress(answers, { validate: true }),
    nodeHttp: () => startBareNodeHttp(answers),
  };
  throughput = await withServer(baselines.express, (express) =>
    withServer(baselines.expressValidator, (expressValidator) =>
      withServer(baselines.nodeHttp, (nodeHttp) =>
        measureThroughput({ server, prism, express, expressValidator, nodeHttp }, operations, settings),
      ),
    ),
  );
  log("a 100-payee batch on the warm server…");
  warmBatch = await measureWarmLatency(server, batchOf100Payees, settings.warmBatches);
  log("the largest hostile bodies…");
  hostile = await measureHostileBodies(server, hostileBodies, settings.hostileRepeats);
} finally {
  await Promise.all([server.stop(), prism.stop()]);
}

log("start-up to the first answer…");
/** Milliseconds a bare `node -e 0` takes here: Node's own start, the floor under every start-up above. */
function nodeStartTimes(): number[] {
  return Array.from({ length: settings.startups }, () => {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    return performance.now() - started;
  });
}
const startup = {
  npmStart: await startupTimes(startReferenceServer),
  prism: await startupTimes(startPrismMock),
  bareNode: nodeStartTimes(),
};

log(`secure-payment creation on a fresh store and on one of ${settings.creationRecords} records…`);
const creation = await withServer(startReferenceServer, (fresh) =>
  withServer(startReferenceServer, (full) =>
    measureCreationCost({ fresh, full }, createSecurePayment, {
      records: settings.creationRecords,
      rounds: settings.rounds,
      perRound: settings.creationRound,
      warmUp: settings.creationWarmUp,
      connections: settings.connections,
    }),
  ),
);

log(`payments on a local chain: ${settings.chainPayments} detected, and npm start -- --chain…`);
const chainDetection = await measureChainDetection(settings.chainPayments);
const chainStartup = await startupTimes(startReferenceServerWithChain, settings.chainStartups);

const rate = (target: string, operation: string) => medianRate(throughput, target, operation);
// Each ratio is the median of the rounds' ratios: runs of one round are seconds apart.
const ratio = (baseline: string, operation: string) => medianRatio(throughput, "server", baseline, operation);
const checks: TargetCheck[] = [];
for (const operation of Object.keys(operations)) {
  checks.push(
    {
      metric: `${operation}: server ÷ Prism`,
      value: ratio("prism", operation),
      unit: "×",
      comparison: ">=",
      target: 5,
    },
    {
      metric: `${operation}: server ÷ bare Express`,
      value: 100 * ratio("express", operation),
      unit: "%",
      comparison: ">=",
      target: 100,
    },
  );
}
checks.push(
  {
    metric: "`npm start` to first answer",
    value: median(startup.npmStart),
    unit: "ms",
    comparison: "<=",
    target: 1000,
  },
  {
    metric: "`npm start -- --chain` to first answer",
    value: median(chainStartup),
    unit: "ms",
    comparison: "<=",
    target: 3000,
  },
  {
    metric: `payment on a local chain detected after its block (slowest of ${settings.chainPayments})`,
    value: Math.max(...chainDetection),
    unit: "ms",
    comparison: "<=",
    target: 1000,
  },
  {
    metric: "100-payee batch payout on a warm server (median)",
    value: warmBatch.medianMs,
    unit: "ms",
    comparison: "<=",
    target: 10,
  },
  {
    metric: "largest hostile body answered (slowest of the bodies, median)",
    value: Math.max(...Object.values(hostile).map((times) => median(times))),
    unit: "ms",
    comparison: "<=",
    target: 100,
  },
  {
    metric: `secure-payment creation, cost at ${settings.creationRecords} records ÷ on a fresh store`,
    value: creation.costRatio,
    unit: "×",
    comparison: "<=",
    target: 1.2,
  },
);

const table = formatTable(checks);
const rates = Object.keys(operations).map(
  (operation) =>
    `${operation}: server ${Math.round(rate("server", operation))}, Prism ${Math.round(rate("prism", operation))}, bare Express ${Math.round(rate("express", operation))}, Express with express-openapi-validator ${Math.round(rate("expressValidator", operation))}, bare node:http ${Math.round(rate("nodeHttp", operation))} req/s (medians)`,
);
// The records each store held over its timed rounds.
const freshRecords = { from: creation.warmUp, to: creation.warmUp + creation.perRound * settings.rounds };
const fullRecords = { from: creation.records + freshRecords.from, to: creation.records + freshRecords.to };
const ms = (values: number[]) => `${Math.round(median(values))} ms`;
const details = [
  ...rates,
  `start-up to the first answer (medians of ${settings.startups}): npm start ${ms(startup.npmStart)}, Prism ${ms(startup.prism)}; a bare \`node -e 0\` ${ms(startup.bareNode)}`,
  `payments on a local chain (anvil), from the block to GET /v2/request answering paid: median ${ms(chainDetection)}, slowest ${Math.round(Math.max(...chainDetection))} ms of ${chainDetection.length}; npm start -- --chain to its first answer ${ms(chainStartup)} (median of ${chainStartup.length})`,
  `100-payee batch on the warm server: ${ms([warmBatch.medianMs])} (median of ${warmBatch.timesMs.length}, after ${settings.warmBatches.warm} not timed)`,
  `secure-payment creation: ${Math.round(median(creation.freshPerSecond))} req/s on a fresh store (${freshRecords.from}–${freshRecords.to} records), ${Math.round(median(creation.fullPerSecond))} req/s on a full one (${fullRecords.from}–${fullRecords.to}); medians of ${settings.rounds} rounds of ${creation.perRound}`,
  ...Object.entries(hostile).map(([name, times]) => `${name}: answered in ${ms(times)} (median)`),
];
console.log(`${table}\n\n${details.join("\n")}`);

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" });
const results = {
  date: new Date().toISOString(),
  commit: commit.stdout.trim(),
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    /** 1-, 5- and 15-minute load averages when the run started and when it ended. */
    loadAverage: { start: loadAtStart, end: os.loadavg() },
  },
  settings,
  checks: checks.map((check) => ({ ...check, met: isMet(check) })),
  throughput,
  startup,
  warmBatch,
  hostile,
  creation,
  chain: { detectionMs: chainDetection, startupMs: chainStartup },
};
// Only the latest run is kept (git has the earlier ones); a --quick run is a smoke test and
// never replaces it.
const folder = path.join(repoRoot, "bench-results");
mkdirSync(folder, { recursive: true });
const name = values.quick ? "quick.json" : "latest.json";
writeFileSync(path.join(folder, name), `${JSON.stringify(results, null, 2)}\n`);
log(`wrote bench-results/${name}`);
process.exit(checks.every(isMet) ? 0 : 1);
