import { parseArgs } from "node:util";
import {
  ConfigError,
  createDefaultConfig,
  createServer,
  loadConfigFile,
  type SandboxConfig,
  sampleCredentials,
} from "../src/server/index.ts";

const usage = `Usage: npm start -- [--port 3000] [--host 127.0.0.1] [--config sandbox.json]

Runs the payreq reference server, a stateful sandbox of the Payment Request Service, with an
in-memory store. Without --config (or PAYREQ_CONFIG) it uses built-in sandbox credentials,
printed below once it listens. PORT sets the port when --port is not given.`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: "string", default: process.env.PORT ?? "3000" },
        host: { type: "string", default: "127.0.0.1" },
        config: { type: "string", default: process.env.PAYREQ_CONFIG },
        help: { type: "boolean", default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      fail(`--port (or PORT) must be a whole number from 0 to 65535, got "${values.port}"`);
    }
    return { port, host: values.host, configFile: values.config };
  } catch (error) {
    fail((error as Error).message);
  }
}

function readConfig(configFile: string | undefined): SandboxConfig {
  if (configFile === undefined || configFile === "") return createDefaultConfig();
  try {
    return loadConfigFile(configFile);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

function describeCredentials(config: SandboxConfig, usesDefault: boolean, origin: string): string[] {
  if (usesDefault) {
    return [
      "Sandbox credentials (sandbox-only values):",
      `  API key:         ${sampleCredentials.apiKey}   (header x-api-key)`,
      `  Client ID:       ${sampleCredentials.clientId}   (header x-client-id, with Origin http://localhost:5173 or ${origin})`,
      `  Webhook secret:  ${sampleCredentials.webhookSecret}`,
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

const options = readOptions();
const config = readConfig(options.configFile);
const server = createServer({ config });
const running = await server.listen({ port: options.port, host: options.host });
const origin = server.publicOrigin();
const tryKey = options.configFile ? "<your API key>" : sampleCredentials.apiKey;

console.log(
  [
    "",
    "payreq reference server (a sandbox of the Payment Request Service) is listening",
    `  API:      ${running.url}   (try: curl -H 'x-api-key: ${tryKey}' '${running.url}/v1/currencies?network=base')`,
    `  Spec:     ${running.url}/openapi.json`,
    `  Docs:     ${running.url}/docs`,
    ...(origin === running.url ? [] : [`  Public:   ${origin}`]),
    ...describeCredentials(config, !options.configFile, origin),
    "Stop with Ctrl+C.",
    "",
  ].join("\n"),
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    running.close().finally(() => process.exit(0));
  });
}
