import { formatUnits } from "viem";
import { fundedEther, fundedTokenUnits } from "../../chain/local/funding.ts";
import type { LocalChain } from "../../chain/local/local-chain.ts";
import {
  createDefaultConfig,
  type SandboxConfig,
  sampleCredentials,
} from "../../server/config/sandbox-config.ts";
import { isWildcardAddress } from "../../server/reachable-host.ts";
import { CommandError, UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { describeListenError } from "../describe-listen-error.ts";
import { readPort } from "../option-values.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { watchStopSignals } from "../stop-signal.ts";
import { isLoopbackBindAddress, loopbackWebhookTargets } from "./local-webhook-targets.ts";

export interface ServeCommandOptions {
  /** How the user typed the command, for usage and messages: `payreq serve` or `npm start --`. */
  command: string;
}

function serveUsage(command: string): string {
  return `Usage: ${command} [--port 3000] [--host 127.0.0.1] [--config sandbox.json] [--database postgres://...] [--strict-bodies]
       [--rate-limit] [--chain | --chain-rpc http://...] [--quiet | --log-format text|json]

Runs the payreq reference server, a stateful sandbox of the Payment Request Service. It keeps
its records in memory, or, with --database (or DATABASE_URL), in PostgreSQL, where they survive
restarts and several instances share them. Without --config (or PAYREQ_CONFIG) it uses built-in
sandbox credentials, printed below once it listens. PORT sets the port when --port is not given.

Options:
  --port P         the port to listen on (default 3000; 0 picks a free one)
  --host H         the address to listen on (default 127.0.0.1)
  --config F       a JSON sandbox configuration: accounts, API keys, webhook endpoints, limits
  --database U     a postgres:// URL; the schema is created or brought up to date at start
  --strict-bodies  refuse body members the spec does not describe (400) instead of ignoring
                   them as the service does; the same as "strictBodies": true in the config
  --rate-limit     limit client-ID callers as the service does: 300 requests a minute per
                   client ID and IP, then a 5-minute block (429); "rateLimit": true in the config
  --chain          start a local sepolia (anvil, chain id 11155111) with the Request Network
                   contracts at their official addresses, the test tokens and funded accounts;
                   payments sent to it are detected and recorded, webhooks included
  --chain-rpc U    the same on a node you run (anvil, or any node that takes anvil_setCode or
                   hardhat_setCode) at the http(s) URL U, instead of starting one
  --log-format F   each request's log line as text (the default: method, path, status,
                   operationId, milliseconds) or as a JSON object (json), on standard output
  --quiet          log no requests
  -h, --help       show this help`;
}

const serveOptions = {
  port: { type: "string" },
  host: { type: "string" },
  config: { type: "string" },
  database: { type: "string" },
  "strict-bodies": { type: "boolean" },
  "rate-limit": { type: "boolean" },
  chain: { type: "boolean" },
  "chain-rpc": { type: "string" },
  quiet: { type: "boolean" },
  "log-format": { type: "string" },
} as const;

const logFormats = ["text", "json"] as const;

/** Runs the reference server until SIGINT or SIGTERM; resolves with the exit status. */
export async function runServe(
  args: readonly string[],
  io: CliIo,
  options: ServeCommandOptions,
): Promise<number> {
  const { command } = options;
  const parsed = parseCommandLine(args, { command, options: serveOptions });
  if (parsed.help) {
    printLine(io.stdout, serveUsage(command));
    return 0;
  }
  const port = readPort(parsed.values.port ?? (io.env.PORT || "3000"), "--port (or PORT)", command);
  const host = parsed.values.host ?? "127.0.0.1";
  const configFile = parsed.values.config ?? io.env.PAYREQ_CONFIG;
  const databaseUrl = parsed.values.database ?? (io.env.DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError("--database (or DATABASE_URL) must be a postgres:// or postgresql:// URL", command);
  }
  const chainRpc = parsed.values["chain-rpc"];
  if (chainRpc !== undefined && !/^https?:\/\/./.test(chainRpc)) {
    throw new UsageError("--chain-rpc must be an http:// or https:// URL", command);
  }
  const wantsChain = parsed.values.chain === true || chainRpc !== undefined;
  const logFormat = parsed.values["log-format"] ?? "text";
  if (!logFormats.includes(logFormat as never)) {
    throw new UsageError(`--log-format must be text or json, got "${logFormat}"`, command);
  }
  if (parsed.values.quiet === true && parsed.values["log-format"] !== undefined) {
    throw new UsageError("give either --quiet or --log-format, not both", command);
  }
  const requestLog =
    parsed.values.quiet === true
      ? undefined
      : { format: logFormat as (typeof logFormats)[number], write: (line: string) => io.stdout.write(line) };
  const usesDefault = configFile === undefined || configFile === "";
  // The server (Express, the validator, the spec) loads only once the command line is good,
  // and the PostgreSQL driver only for a database.
  const [{ ConfigError, loadConfigFile }, { createServer }] = await Promise.all([
    import("../../server/config/load-config.ts"),
    import("../../server/create-server.ts"),
  ]);
  let config: SandboxConfig;
  // The built-in sandbox on loopback serves this machine only: its webhooks may reach this
  // machine's receivers (payreq webhooks listen). A configuration file says so itself.
  const allowsLocalReceivers = usesDefault && isLoopbackBindAddress(host);
  try {
    config = usesDefault ? createDefaultConfig() : loadConfigFile(configFile);
    if (allowsLocalReceivers) config.allowWebhookTargets = [...loopbackWebhookTargets];
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, command);
    throw error;
  }

  const store =
    databaseUrl === undefined
      ? undefined
      : await import("../../server/store/postgres/postgres-store.ts")
          .then(({ createPostgresStore }) =>
            createPostgresStore({
              connectionString: databaseUrl,
              timeouts: {
                connectTimeoutMs: config.databaseConnectTimeoutMs,
                statementTimeoutMs: config.databaseStatementTimeoutMs,
                lockTimeoutMs: config.databaseLockTimeoutMs,
              },
            }),
          )
          .catch((error: Error) => {
            throw new CommandError(
              `Cannot open the database ${describeDatabase(databaseUrl)}: ${error.message}`,
              { cause: error },
            );
          });
  // anvil and the contracts' bytecode load only for a local chain: without one, nothing waits on them.
  const chain = wantsChain ? await startChain(chainRpc) : undefined;
  if (parsed.values["strict-bodies"]) config = { ...config, strictBodies: true };
  if (parsed.values["rate-limit"]) config = { ...config, rateLimit: true };
  let server: ReturnType<typeof createServer>;
  try {
    server = createServer({
      config,
      ...(store ? { store } : {}),
      ...(chain ? { chain: { rpcUrl: chain.rpcUrl, network: chain.network } } : {}),
    });
  } catch (error) {
    // A configured fault naming an operation the spec does not have is found only here.
    await Promise.all([store?.close(), chain?.stop()]);
    if (error instanceof ConfigError) throw new UsageError(error.message, command);
    throw error;
  }
  const stop = watchStopSignals();
  try {
    const running = await server.listen({ port, host }).catch((error: NodeJS.ErrnoException) => {
      const message = describeListenError(error, {
        host,
        port,
        what: "the server",
        portInUseHint: "stop what runs there, or pass --port (0 picks a free port)",
      });
      throw new CommandError(message, { cause: error });
    });
    const origin = server.publicOrigin();
    const tryKey = usesDefault ? sampleCredentials.apiKey : "<your API key>";
    printLine(
      io.stdout,
      [
        "",
        "payreq reference server (a sandbox of the Payment Request Service) is listening",
        `  API:      ${running.url}   (try: curl -H 'x-api-key: ${tryKey}' '${running.url}/v1/currencies?network=base')`,
        `  Spec:     ${running.url}/openapi.json`,
        `  Docs:     ${running.url}/docs`,
        ...(isWildcardAddress(host)
          ? [
              `  Bound:    ${host} port ${running.port} (every interface; set publicBaseUrl in a configuration file for links other machines can open)`,
            ]
          : []),
        ...(origin === running.url ? [] : [`  Public:   ${origin}`]),
        `  Store:    ${databaseUrl === undefined ? "in memory (lost when the server stops)" : `PostgreSQL ${describeDatabase(databaseUrl)}`}`,
        ...(chain ? describeChain(chain) : []),
        ...describeCredentials(config, usesDefault, origin),
        ...describeWebhookTargets(config, usesDefault, allowsLocalReceivers),
        requestLog
          ? `Requests are logged below, one line each${requestLog.format === "json" ? " as JSON" : ""} (--quiet for none).`
          : "Requests are not logged (--quiet).",
        "Stop with Ctrl+C.",
        "",
      ].join("\n"),
    );
    await stop.received;
    await running.close();
    return 0;
  } finally {
    stop.dispose();
    await Promise.all([store?.close(), chain?.stop()]);
  }
}

async function startChain(rpcUrl: string | undefined): Promise<LocalChain> {
  const { startLocalChain } = await import("../../chain/local/local-chain.ts");
  return startLocalChain(rpcUrl === undefined ? {} : { rpcUrl }).catch((error: Error) => {
    throw new CommandError(
      `Cannot ${rpcUrl === undefined ? "start the local chain" : `set up the chain at ${rpcUrl}`}: ${error.message}`,
      { cause: error },
    );
  });
}

/** Where the chain runs and the accounts that can pay on it (their keys are public test keys). */
function describeChain(chain: LocalChain): string[] {
  const tokens = chain.tokens.map((token) => token.symbol).join(", ");
  return [
    `  Chain:    local ${chain.network}, chain id ${chain.chainId}, RPC ${chain.rpcUrl} (${chain.started ? "anvil, stopped with the server" : "your node"})`,
    `  Funded accounts (test mnemonic "test test test test test test test test test test test junk"; each has ${formatUnits(fundedEther, 18)} ETH and ${fundedTokenUnits.toLocaleString("en-US")} of ${tokens}):`,
    ...chain.accounts.map((account) => `    ${account.address}  key ${account.privateKey}`),
  ];
}

/** A database URL without its credentials: host, port and database name only. */
function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return "(an unreadable URL)";
  }
}

/** The sandbox's sample credentials are printed on purpose; a configuration file's secrets never are. */
function describeCredentials(config: SandboxConfig, usesDefault: boolean, origin: string): string[] {
  if (usesDefault) {
    return [
      "Sandbox credentials (sandbox-only values):",
      `  API key:         ${sampleCredentials.apiKey}   (header x-api-key)`,
      `  Client ID:       ${sampleCredentials.clientId}   (header x-client-id, with Origin http://localhost:5173 or ${origin})`,
      // A webhook's secret comes with the webhook: none is signed with a secret printed here.
      "  Webhooks:        register a receiver to get its signing secret: POST /sandbox/webhooks/endpoints",
      "                   (API key), or POST /v1/webhook (Auth API: session or client ID); see docs/auth-api.md",
      `  Orchestrator key: ${sampleCredentials.orchestratorKey}   (header x-orchestrator-key)`,
    ];
  }
  return [
    "Accounts from the configuration file (API keys and webhook secrets are in the file):",
    ...config.accounts.flatMap((account) => [
      `  ${account.id}: ${account.apiKeys.length} API key(s)`,
      ...account.clientIds.map(
        (client) => `    client ID ${client.clientId} for ${client.allowedDomains.join(", ") || "no origin"}`,
      ),
    ]),
  ];
}

/** Which webhook receivers the server may reach, since the address guard refuses local ones by default. */
function describeWebhookTargets(config: SandboxConfig, usesDefault: boolean, allowsLocal: boolean): string[] {
  if (allowsLocal) {
    return [
      `Webhooks may reach this machine (${loopbackWebhookTargets.join(", ")}): the server listens on loopback only.`,
    ];
  }
  const allowed = config.allowWebhookTargets ?? [];
  if (allowed.length > 0) return [`Webhooks may reach public addresses and ${allowed.join(", ")}.`];
  return [
    usesDefault
      ? "Webhooks reach public addresses only: the server listens beyond loopback, so receivers on this machine are refused."
      : "Webhooks reach public addresses only: list local receivers in the file's allowWebhookTargets.",
  ];
}
