import { CommandError, UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { describeListenError } from "../describe-listen-error.ts";
import { readHttpUrl, readPort } from "../option-values.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { watchStopSignals } from "../stop-signal.ts";
import { describeBody, describeDelivery } from "./describe-delivery.ts";
import {
  apiKeyPlaceholder,
  callSandbox,
  connectToSandbox,
  curlApiKeyHeader,
  defaultServerUrl,
  type SandboxConnection,
  sandboxConnectionOptions,
} from "./sandbox-connection.ts";
import { type RunningWebhookListener, startWebhookListener } from "./webhook-listener.ts";

const command = "payreq webhooks listen";
const listenerHost = "127.0.0.1";
/** Longer than the service waits (5 s), so that a slow endpoint is seen as slow, not as down. */
const forwardTimeoutMs = 10_000;

const listenUsage = `Usage: ${command} [--port P] [--forward-to URL] [--server URL] [--api-key K]
         [--secret S] [--print-secret] [--json]

Receives webhook deliveries on ${listenerHost}: verifies each signature, prints one line per
delivery and, with --forward-to, passes the exact bytes and headers on to your endpoint and
answers the sender with your endpoint's status (502 when it cannot be reached, 504 when it does
not answer within ${forwardTimeoutMs / 1000} s). Deliveries with an invalid signature are answered 401, printed as
rejected and not forwarded.

It registers itself as a webhook endpoint of the reference server (payreq serve) through the
sandbox API, verifies with the signing secret the server returns, and deletes the endpoint when
stopped (Ctrl+C or SIGTERM). With --secret it registers nothing and verifies with that secret:
point an endpoint you set up elsewhere (a configuration file's webhookEndpoints) at its URL.

Options:
  --port P          the port to listen on (default: a free one)
  --forward-to URL  your webhook endpoint, such as http://localhost:8080/webhooks/payreq
  --server URL      the reference server (default ${defaultServerUrl})
  --api-key K       its API key (default: PAYREQ_API_KEY, else the sandbox's sample key)
  --secret S        verify with this signing secret instead of registering an endpoint
  --print-secret    print the registered endpoint's signing secret, for your endpoint's settings
  --json            print each delivery's body after its line
  -h, --help        show this help

Each delivery prints a line such as:
  2026-04-12T10:31:47.120Z  payment.confirmed  requestId=015fec...  delivery=01KP0K...  retry=0
  test=false  signature=ok  forwarded=200

Examples:
  payreq webhooks listen
  payreq webhooks listen --forward-to http://localhost:8080/webhooks/payreq --print-secret
  payreq webhooks listen --port 4242 --secret "$PAYREQ_WEBHOOK_SECRET"`;

const listenOptions = {
  port: { type: "string" },
  "forward-to": { type: "string" },
  secret: { type: "string" },
  "print-secret": { type: "boolean" },
  json: { type: "boolean" },
  ...sandboxConnectionOptions,
} as const;

interface RegisteredEndpoint {
  id: string;
  secret: string;
  secretLast4: string;
}

/** Runs the listener until SIGINT or SIGTERM; resolves with the exit status. */
export async function runWebhooksListen(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(args, { command, options: listenOptions });
  if (parsed.help) {
    printLine(io.stdout, listenUsage);
    return 0;
  }
  const { values } = parsed;
  const port = readPort(values.port ?? "0", "--port", command);
  const forwardTo =
    values["forward-to"] === undefined
      ? undefined
      : readHttpUrl(values["forward-to"], "--forward-to", command, "http://localhost:8080/webhooks/payreq");
  if (values.secret !== undefined && (values.server !== undefined || values["api-key"] !== undefined)) {
    throw new UsageError(
      "--secret registers no endpoint, so --server and --api-key do not apply: drop --secret to register with the server (it then generates the secret)",
      command,
    );
  }
  if (values.secret === "") throw new UsageError("--secret must not be empty", command);
  if (values.secret !== undefined && values["print-secret"]) {
    throw new UsageError(
      "--print-secret prints a registered endpoint's secret; with --secret you have it",
      command,
    );
  }
  const connection = values.secret === undefined ? connectToSandbox(values, io, command) : undefined;

  let secret = values.secret;
  const stop = watchStopSignals();
  let listener: RunningWebhookListener | undefined;
  let endpoint: RegisteredEndpoint | undefined;
  try {
    listener = await startWebhookListener({
      port,
      host: listenerHost,
      secret: () => secret,
      forwardTo,
      forwardTimeoutMs,
      onDelivery(delivery) {
        printLine(io.stdout, describeDelivery(delivery));
        if (values.json) printLine(io.stdout, describeBody(delivery));
      },
    }).catch((error: NodeJS.ErrnoException) => {
      const message = describeListenError(error, {
        host: listenerHost,
        port,
        what: "the listener",
        portInUseHint: "pass another --port, or leave it out for a free one",
      });
      throw new CommandError(message, { cause: error });
    });
    if (connection) {
      endpoint = await registerEndpoint(connection, listener.url);
      secret = endpoint.secret;
    }
    printLine(
      io.stdout,
      banner({ url: listener.url, connection, endpoint, forwardTo, printSecret: values["print-secret"] }),
    );
    await stop.received;
    return await unregister(connection, endpoint, io);
  } finally {
    await listener?.close();
    stop.dispose();
  }
}

async function registerEndpoint(connection: SandboxConnection, url: string): Promise<RegisteredEndpoint> {
  return callSandbox(connection, "register the listener as a webhook endpoint", () =>
    connection.client.POST("/sandbox/webhooks/endpoints", { body: { url } }),
  );
}

async function unregister(
  connection: SandboxConnection | undefined,
  endpoint: RegisteredEndpoint | undefined,
  io: CliIo,
): Promise<number> {
  if (connection === undefined || endpoint === undefined) return 0;
  try {
    await callSandbox(connection, `delete webhook endpoint ${endpoint.id}`, () =>
      connection.client.DELETE("/sandbox/webhooks/endpoints/{endpointId}", {
        params: { path: { endpointId: endpoint.id } },
      }),
    );
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    printLine(io.stderr, error.message);
    return 1;
  }
  printLine(io.stdout, `Deleted webhook endpoint ${endpoint.id} from ${connection.server}.`);
  return 0;
}

function banner(input: {
  url: string;
  connection: SandboxConnection | undefined;
  endpoint: RegisteredEndpoint | undefined;
  forwardTo: string | undefined;
  printSecret: boolean;
}): string {
  const { url, connection, endpoint, forwardTo } = input;
  const lines = [
    "",
    "payreq webhook listener",
    `  Listening:   ${url}   (verifies x-request-network-signature)`,
  ];
  if (connection && endpoint) {
    const serverFlag = connection.server === defaultServerUrl ? "" : ` --server ${connection.server}`;
    const keyFlag = connection.apiKeyHint === apiKeyPlaceholder ? ` --api-key '${apiKeyPlaceholder}'` : "";
    lines.push(
      `  Endpoint:    ${endpoint.id} on ${connection.server}, all events, secret ending in ${endpoint.secretLast4}`,
      ...(input.printSecret ? [`  Secret:      ${endpoint.secret}`] : []),
      `  Deliveries:  curl -H ${curlApiKeyHeader(connection)} '${connection.server}/sandbox/webhooks/deliveries?endpointId=${endpoint.id}'`,
      `  Try:         payreq webhooks trigger payment.confirmed${serverFlag}${keyFlag}`,
    );
  } else {
    lines.push("  Endpoint:    none registered (--secret given): point your webhook endpoint's URL here");
  }
  lines.push(
    forwardTo === undefined
      ? "  Forwarding:  none (answers 200 to every verified delivery; --forward-to URL passes them on)"
      : `  Forwarding:  to ${forwardTo} (the sender gets its status)`,
    `Ready: waiting for deliveries. Stop with Ctrl+C${endpoint ? " (deletes the endpoint)" : ""}.`,
    "",
  );
  return lines.join("\n");
}
