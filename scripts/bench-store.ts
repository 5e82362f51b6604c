// `npm run bench:store -- [--count 50000] [--window 1000] [--concurrency 8]`: does the Nth secure
// payment cost what the first ones did? Creates `count` secure payments through the reference
// server (in-memory store, response validation on, as `npm start` runs it), `concurrency` calls at
// a time, and prints the mean time of the last `window` creations over the mean of the first
// `window` after a warm-up. The target: the 50,000th costs at most 1.2 times the first. Exits 1
// when it is missed.
import { parseArgs } from "node:util";
import { sampleCredentials } from "../src/server/config/sandbox-config.ts";
import { createServer } from "../src/server/index.ts";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "50000" },
    window: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "8" },
  },
});
const count = Number(values.count);
const window = Number(values.window);
const concurrency = Number(values.concurrency);
const warmUp = 500;
const target = 1.2;
if (
  ![count, window, concurrency].every(Number.isInteger) ||
  window < 1 ||
  concurrency < 1 ||
  count < warmUp + 2 * window
) {
  console.error(`--count must be at least ${warmUp} + 2 × --window; all three whole numbers above 0`);
  process.exit(2);
}

const server = createServer();
const running = await server.listen({ port: 0 });
const body = JSON.stringify({
  requests: [
    {
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      amount: "125.00",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
    },
  ],
});

async function createOne(): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${running.url}/v2/secure-payments`, {
    method: "POST",
    headers: { "x-api-key": sampleCredentials.apiKey, "content-type": "application/json" },
    body,
  });
  await answer.arrayBuffer();
  if (answer.status !== 201) throw new Error(`creation answered ${answer.status}`);
  return performance.now() - started;
}

const mean = (list: ArrayLike<number>) =>
  Array.from(list).reduce((sum, value) => sum + value, 0) / list.length;
/** The time of each creation, by its place in the sequence (1-based). */
const times = new Float64Array(count + 1);
const step = Math.max(window, Math.floor(count / 10));
console.log(`creating ${count} secure payments, ${concurrency} at a time, on ${running.url}`);
let started = 0;
let finished = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (started < count) {
      const n = ++started;
      times[n] = await createOne();
      finished++;
      if (finished % step === 0) {
        const recent = times.subarray(Math.max(1, n - step + 1), n + 1);
        console.log(
          `  ${String(finished).padStart(7)} created, mean of the last ${step}: ${mean(recent).toFixed(3)} ms`,
        );
      }
    }
  }),
);
await running.close();

const first = times.subarray(warmUp + 1, warmUp + window + 1);
const last = times.subarray(count - window + 1);
const ratio = mean(last) / mean(first);
console.log(
  `first ${window} after ${warmUp} warm-up: ${mean(first).toFixed(3)} ms; last ${window}: ${mean(last).toFixed(3)} ms`,
);
console.log(`ratio ${ratio.toFixed(2)} (target at most ${target}): ${ratio <= target ? "met" : "missed"}`);
process.exit(ratio <= target ? 0 : 1);
