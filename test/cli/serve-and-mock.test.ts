import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { findPrism } from "../../src/cli/mock/find-prism.ts";
import { sampleCredentials } from "../../src/server/index.ts";
import { getAtPointer, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { findFreePort } from "../support/prism.ts";
import { type RunningPayreq, startPayreq } from "./payreq-process.ts";

const started: RunningPayreq[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((command) => command.kill()));
});

async function start(args: string[]): Promise<RunningPayreq> {
  const command = await startPayreq(args, /Stop with Ctrl\+C\./);
  started.push(command);
  return command;
}

describe("payreq serve", () => {
  it("prints its URLs and the sample key, answers GET /v1/currencies with it, and stops on SIGTERM", async () => {
    const serve = await start(["serve", "--port", "0"]);
    const url = /API:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())?.[1] as string;
    expect(url).toBeDefined();
    expect(serve.output()).toContain(`Spec:     ${url}/openapi.json`);
    expect(serve.output()).toContain(`Docs:     ${url}/docs`);
    expect(serve.output()).toContain(`API key:         ${sampleCredentials.apiKey}   (header x-api-key)`);

    const answer = await fetch(`${url}/v1/currencies?network=base&symbol=USDC&firstOnly=true`, {
      headers: { "x-api-key": sampleCredentials.apiKey },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      id: "USDC-base",
      network: "base",
      symbol: "USDC",
      decimals: 6,
    });
    expect((await fetch(`${url}/v1/currencies`)).status).toBe(401);

    expect(await serve.stop("SIGTERM")).toBe(0);
  });
});

describe("payreq serve --host 0.0.0.0", () => {
  it("prints and links a loopback origin one can open, and says it listens on every interface", async () => {
    const serve = await start(["serve", "--port", "0", "--host", "0.0.0.0"]);
    const url = /API:\s+(http:\/\/\S+)/.exec(serve.output())?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(url).port;
    expect(serve.output()).toContain(
      `  Bound:    0.0.0.0 port ${port} (every interface; set publicBaseUrl in a configuration file for links other machines can open)`,
    );
    expect(serve.output()).not.toContain("0.0.0.0:");
    const created = await fetch(`${url}/v2/secure-payments`, {
      method: "POST",
      headers: { "x-api-key": sampleCredentials.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        requests: [
          {
            payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
            amount: "1",
            invoiceCurrency: "USD",
            paymentCurrency: "USDC-base",
          },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const { securePaymentUrl, token } = (await created.json()) as { securePaymentUrl: string; token: string };
    expect(securePaymentUrl).toBe(`${url}/pay?token=${token}`);
  });
});

describe("payreq mock", () => {
  it("starts Prism, prints its URL and answers with the spec's examples", async () => {
    const port = await findFreePort();
    const mock = await start(["mock", "--port", String(port)]);
    const base = `http://127.0.0.1:${port}`;
    expect(mock.output()).toContain(
      "payreq mock (Prism, spec examples) is serving the Payment Request Service API",
    );
    expect(mock.output()).toContain(`API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`);
    const answer = await fetch(`${base}/v1/currencies?network=base`, { headers: { "x-api-key": "any" } });
    expect(answer.status).toBe(200);
    // Prism answers with the first of the operation's examples, whatever the filters.
    const example = getAtPointer(loadBundledSpec(), "/components/examples/CurrencyListMainnet/value");
    expect(example).toBeDefined();
    expect(await answer.json()).toEqual(example);
    expect((await fetch(`${base}/v1/currencies`)).status).toBe(401);

    // SIGTERM to payreq alone stops Prism too: nothing answers on the port afterwards.
    expect(await mock.stop("SIGTERM")).toBe(0);
    await expect(fetch(`${base}/v1/currencies`)).rejects.toThrow("fetch failed");
  });

  it("finds Prism in this checkout, and says exactly how to install it where it is missing", () => {
    expect(findPrism(path.join(repoRoot, "package.json"))).toBe(
      path.join(repoRoot, "node_modules", "@stoplight", "prism-cli", "dist", "index.js"),
    );
    const elsewhere = path.join(mkdtempSync(path.join(tmpdir(), "payreq-no-prism-")), "package.json");
    expect(() => findPrism(elsewhere)).toThrow(
      [
        "The mock needs Prism (@stoplight/prism-cli), which is not installed.",
        "In a checkout of payreq, install the development dependencies:  npm ci",
        "Elsewhere, install it next to payreq:  npm install --save-dev @stoplight/prism-cli@5.14.2",
        "(Prism 5.15 and later need Node.js 24.)",
      ].join("\n"),
    );
  });
});
