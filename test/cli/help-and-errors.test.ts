import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { findFreePort } from "../support/prism.ts";
import { runPayreq, runPayreqInProcess } from "./payreq-process.ts";

const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;

describe("payreq --help", () => {
  it.each([
    [
      ["--help"],
      "Usage: payreq <command> [options]",
      ["serve", "mock", "proxy", "webhooks listen", "webhooks trigger", "--version"],
    ],
    // `npx payreq` alone, as a first try: the help, not an error.
    [[], "Usage: payreq <command> [options]", ["serve", "mock", "webhooks listen"]],
    [["webhooks", "--help"], "Usage: payreq webhooks <listen|trigger> [options]", ["listen", "trigger"]],
    [
      ["webhooks", "listen", "--help"],
      "Usage: payreq webhooks listen [--port P] [--forward-to URL] [--server URL] [--api-key K]",
      [
        "--port P",
        "--forward-to URL",
        "--server URL",
        "--api-key K",
        "--secret S",
        "--print-secret",
        "--json",
        "401",
      ],
    ],
    [
      ["webhooks", "trigger", "-h"],
      "Usage: payreq webhooks trigger EVENT [options]",
      [
        "--request ID",
        "--amount A",
        "--sub-status S",
        "--refund-to ADDRESS",
        "--client-user-id ID",
        "--kyc-status S",
        "--agreement-status S",
        "--status S",
        "--server URL",
        "--api-key K",
        "POST /v2/secure-payments",
        "payment_detail.updated",
      ],
    ],
    [
      ["serve", "--help"],
      "Usage: payreq serve [--port 3000] [--host 127.0.0.1] [--config sandbox.json] [--database postgres://...] [--strict-bodies]",
      ["PORT", "DATABASE_URL", '"strictBodies": true'],
    ],
    [["mock", "--help"], "Usage: payreq mock [--port 4010] [--host 127.0.0.1] [--dynamic]", ["Prism"]],
    [
      ["proxy", "--help"],
      "Usage: payreq proxy --upstream URL [--port 4020] [--host 127.0.0.1] [--report FILE] [--junit FILE]",
      [
        "--fail-on-violation",
        "--strict-bodies",
        "--timeout MS",
        "--verbose",
        "504",
        "generated/openapi.json",
      ],
    ],
    // --help wins over everything else on the line, even a bad flag.
    [["webhooks", "listen", "--bogus", "--help"], "Usage: payreq webhooks listen", []],
  ])("payreq %j prints its usage and exits 0", async (args, firstLine, mentions) => {
    const run = await runPayreq(args);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.startsWith(firstLine)).toBe(true);
    for (const mention of mentions) expect(run.stdout).toContain(mention);
  });

  it("prints the package's version with --version", async () => {
    const run = await runPayreq(["--version"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it("works as `npx payreq --help` in this checkout, also through the bin link npx made for it when the entry was bin/payreq.mjs", () => {
    // npx links a checkout's bins once per path and keeps those links (npm/cli#9766).
    const npmCache = mkdtempSync(path.join(tmpdir(), "payreq-npm-cache-"));
    const npx = () =>
      spawnSync("npx", ["payreq", "--help"], {
        cwd: repoRoot,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, npm_config_cache: npmCache },
      });
    const usage = "Usage: payreq <command> [options]\n";
    try {
      const first = npx();
      expect(first.status).toBe(0);
      expect(first.stdout.startsWith(usage)).toBe(true);
      const entries = readdirSync(path.join(npmCache, "_npx"));
      expect(entries).toHaveLength(1);
      const binLink = path.join(npmCache, "_npx", entries[0] as string, "node_modules", ".bin", "payreq");
      expect(readlinkSync(binLink)).toBe("../payreq/bin/payreq.cjs");
      rmSync(binLink);
      symlinkSync("../payreq/bin/payreq.mjs", binLink);
      const throughOldLink = npx();
      expect(throughOldLink.stderr).toBe("");
      expect(throughOldLink.status).toBe(0);
      expect(throughOldLink.stdout.startsWith(usage)).toBe(true);
    } finally {
      rmSync(npmCache, { recursive: true, force: true });
    }
  });
});

describe("bad command lines exit 2 with a message naming the problem", () => {
  it.each([
    [["deploy"], 'unknown command "deploy": give serve, mock, proxy or webhooks', "payreq"],
    [["--bogus"], "unknown option --bogus: give a command first (serve, mock, proxy or webhooks)", "payreq"],
    [["webhooks"], "give a webhooks command: listen or trigger", "payreq webhooks"],
    [
      ["webhooks", "forward"],
      'unknown webhooks command "forward": give listen or trigger',
      "payreq webhooks",
    ],
    [["webhooks", "listen", "--bogus"], "unknown option --bogus", "payreq webhooks listen"],
    [["webhooks", "listen", "-x"], "unknown option -x", "payreq webhooks listen"],
    [["webhooks", "listen", "--port"], "--port needs a value", "payreq webhooks listen"],
    [["webhooks", "listen", "--port", "--json"], "--port needs a value", "payreq webhooks listen"],
    [["webhooks", "listen", "--json=yes"], "--json takes no value", "payreq webhooks listen"],
    [["webhooks", "listen", "now"], 'unexpected argument "now"', "payreq webhooks listen"],
    [
      ["webhooks", "listen", "--port", "70000"],
      '--port must be a whole number from 0 to 65535, got "70000"',
      "payreq webhooks listen",
    ],
    [
      ["webhooks", "listen", "--forward-to", "localhost:8080/hooks"],
      '--forward-to must be an http(s) URL such as http://localhost:8080/webhooks/payreq, got "localhost:8080/hooks"',
      "payreq webhooks listen",
    ],
    [
      ["webhooks", "listen", "--server", "http://user:pw@127.0.0.1:3000"],
      "--server must not carry credentials in the URL",
      "payreq webhooks listen",
    ],
    [
      ["webhooks", "listen", "--secret", "whsec_x", "--api-key", "sk_x"],
      "--secret registers no endpoint, so --server and --api-key do not apply: drop --secret to register with the server (it then generates the secret)",
      "payreq webhooks listen",
    ],
    [
      ["webhooks", "trigger"],
      "give the event to trigger: payment.confirmed, payment.partial, payment.confirmed.checkout, payment.partial.checkout, payment.confirmed.client_id, payment.partial.client_id, payment.failed, payment.processing, payment.refunded, request.recurring, compliance.updated, payment_detail.updated, client_id.linked, kyt.screening.completed, secure_payment.user_event, secure_payment.access_rejected",
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.reversed"],
      'unknown event "payment.reversed": give one of payment.confirmed, payment.partial, payment.confirmed.checkout, payment.partial.checkout, payment.confirmed.client_id, payment.partial.client_id, payment.failed, payment.processing, payment.refunded, request.recurring, compliance.updated, payment_detail.updated, client_id.linked, kyt.screening.completed, secure_payment.user_event, secure_payment.access_rejected',
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.confirmed", "--request", "0x1234"],
      '--request must be a request id (01 and 64 lowercase hex digits), got "0x1234"',
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.confirmed", "--amount", "40"],
      "--amount applies to payment.partial, payment.partial.checkout, payment.partial.client_id, payment.refunded only",
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "compliance.updated", "--kyc-status", "verified"],
      '--kyc-status must be one of pending, approved, rejected, retry_required, got "verified"',
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.refunded", "--refund-to", "me"],
      '--refund-to must be a wallet address (0x and 40 hex digits), got "me"',
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.partial", "--amount", "-4"],
      '--amount must be a decimal amount such as 40 or 12.50, got "-4"',
      "payreq webhooks trigger",
    ],
    [
      ["webhooks", "trigger", "payment.partial", "--amount", "4e1"],
      '--amount must be a decimal amount such as 40 or 12.50, got "4e1"',
      "payreq webhooks trigger",
    ],
    [
      ["serve", "--port", "http"],
      '--port (or PORT) must be a whole number from 0 to 65535, got "http"',
      "payreq serve",
    ],
    [["serve", "--verbose"], "unknown option --verbose", "payreq serve"],
    [
      ["serve", "--database", "mysql://db.example.com/sandbox"],
      "--database (or DATABASE_URL) must be a postgres:// or postgresql:// URL",
      "payreq serve",
    ],
    [
      ["mock", "--port", "0"],
      '--port (or PORT) must be a whole number from 1 to 65535, got "0"',
      "payreq mock",
    ],
    [["mock", "--dynamic=false"], "--dynamic takes no value", "payreq mock"],
    [
      ["proxy"],
      "give the upstream to pass calls on to: --upstream URL, such as http://127.0.0.1:3000",
      "payreq proxy",
    ],
    [
      ["proxy", "--upstream", "127.0.0.1:3000"],
      '--upstream must be an http(s) URL such as http://127.0.0.1:3000, got "127.0.0.1:3000"',
      "payreq proxy",
    ],
    [
      ["proxy", "--upstream", "https://user:pw@api.example.com"],
      "--upstream must not carry credentials in the URL",
      "payreq proxy",
    ],
    [
      ["proxy", "--upstream", "http://127.0.0.1:3000", "--timeout", "30s"],
      '--timeout must be a whole number of milliseconds from 1 to 600000, got "30s"',
      "payreq proxy",
    ],
  ])("payreq %j", async (args, message, command) => {
    const run = await runPayreqInProcess(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${message}\nRun '${command} --help' for the options.\n`);
  });

  it("answers the same from the executable as in-process: status 2 and the message on standard error", async () => {
    const args = ["webhooks", "trigger", "payment.reversed"];
    const spawned = await runPayreq(args);
    expect(spawned).toEqual(await runPayreqInProcess(args));
    expect(spawned.status).toBe(2);
    expect(spawned.stderr).toMatch(/^unknown event "payment\.reversed": /);
  });

  it.each([
    ["serve", 0],
    ["mock", 1],
  ])("payreq %s with a bad PORT names PORT, as --port is not given", async (command, min) => {
    const run = await runPayreqInProcess([command], { PORT: "abc" });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `--port (or PORT) must be a whole number from ${min} to 65535, got "abc"\n` +
        `Run 'payreq ${command} --help' for the options.\n`,
    );
  });

  it("does not echo a secret given on a bad command line", async () => {
    const run = await runPayreqInProcess([
      "webhooks",
      "listen",
      "--secret",
      "whsec_do-not-print-7f3a",
      "--server",
      "x",
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).not.toContain("whsec_do-not-print-7f3a");
  });
});

describe("commands that cannot reach the reference server exit 1 and say how to start it", () => {
  it.each([
    [["webhooks", "trigger", "payment.confirmed"], "could not list the webhook endpoints"],
    [["webhooks", "listen"], "could not register the listener as a webhook endpoint"],
  ])("payreq %j", async (args, doing) => {
    const server = `http://127.0.0.1:${await findFreePort()}`;
    const run = await runPayreq([...args, "--server", server, "--api-key", "sk_do-not-print-2b6e"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `${doing}: ${server} is unreachable: connection refused (ECONNREFUSED).\n` +
        "Is the reference server running? Start it with `payreq serve` (or `npm start`), or pass --server URL.\n",
    );
  });
});

describe("commands that cannot listen on their port exit 1 and say what to do", () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    taken.close();
    await once(taken, "close");
  });

  it.each([
    [["serve"], "stop what runs there, or pass --port (0 picks a free port)"],
    [["webhooks", "listen", "--secret", "whsec_x"], "pass another --port, or leave it out for a free one"],
  ])("payreq %j", async (args, hint) => {
    const run = await runPayreq([...args, "--port", String(port)]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`port ${port} on 127.0.0.1 is already in use: ${hint}\n`);
  });
});

describe("docs/cli.md", () => {
  const guide = readFileSync(path.join(repoRoot, "docs", "cli.md"), "utf8");
  const sectionOf = (command: string) => {
    const start = guide.indexOf(`\n## payreq ${command}\n`);
    const end = guide.indexOf("\n## ", start + 1);
    return start < 0 ? "" : guide.slice(start, end < 0 ? undefined : end);
  };

  it.each([["serve"], ["mock"], ["proxy"], ["webhooks listen"], ["webhooks trigger"]])(
    "documents every option of payreq %s in its section, with examples",
    async (command) => {
      const section = sectionOf(command);
      expect(section).not.toBe("");
      expect(section).toContain(`npx payreq ${command}`);
      const help = await runPayreqInProcess([...command.split(" "), "--help"]);
      const flags = new Set(help.stdout.match(/--[a-z][a-z-]+/g));
      expect(flags.size).toBeGreaterThan(1);
      for (const flag of flags) {
        if (flag !== "--help") expect(section, `${flag} of payreq ${command}`).toContain(flag);
      }
    },
  );

  it("is linked from the last section of docs/webhooks.md", () => {
    const webhooksGuide = readFileSync(path.join(repoRoot, "docs", "webhooks.md"), "utf8");
    const last = webhooksGuide.slice(webhooksGuide.lastIndexOf("\n## "));
    expect(last.startsWith("\n## Local development with the CLI\n")).toBe(true);
    expect(last).toContain("[cli.md](cli.md)");
  });
});
