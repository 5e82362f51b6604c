import { UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { halfOfRemaining } from "./partial-amount.ts";
import {
  callSandbox,
  connectToSandbox,
  curlApiKeyHeader,
  defaultServerUrl,
  type SandboxConnection,
  sandboxConnectionOptions,
} from "./sandbox-connection.ts";

const command = "payreq webhooks trigger";

const outcomes = {
  "payment.confirmed": "paid",
  "payment.partial": "partial",
  "payment.failed": "failed",
} as const;
type TriggeredEvent = keyof typeof outcomes;

/** The request created when none is given: the sandbox's usual example. */
const sampleRequest = {
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  amount: "125.00",
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
} as const;

const requestIdPattern = /^01[0-9a-f]{64}$/;
const decimalPattern = /^\d+(\.\d+)?$/;

const triggerUsage = `Usage: ${command} payment.confirmed|payment.partial|payment.failed
         [--request ID] [--amount A] [--server URL] [--api-key K]

Makes the reference server (payreq serve) send a real, signed webhook: it records a payment
through the sandbox API, and the server delivers the event to every webhook endpoint of the
account (start \`payreq webhooks listen\` first to see it arrive).

  payment.confirmed   the request is paid in full
  payment.partial     part of what is left is paid (--amount, default half of it)
  payment.failed      a payment attempt fails (insufficient_funds); the request stays payable

Without --request it first creates a secure payment link for ${sampleRequest.amount} ${sampleRequest.invoiceCurrency} paid in ${sampleRequest.paymentCurrency}
(POST /v2/secure-payments) and uses its request.

Options:
  --request ID   the request to pay (01 and 64 hex digits); a new one when absent
  --amount A     for payment.partial, the amount paid in the payment currency, such as 40
  --server URL   the reference server (default ${defaultServerUrl})
  --api-key K    its API key (default: PAYREQ_API_KEY, else the sandbox's sample key)
  -h, --help     show this help

Examples:
  payreq webhooks trigger payment.confirmed
  payreq webhooks trigger payment.partial --amount 40
  payreq webhooks trigger payment.failed --request 015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9`;

const triggerOptions = {
  request: { type: "string" },
  amount: { type: "string" },
  ...sandboxConnectionOptions,
} as const;

/** Records the payment that sends the event, and says what it did and where the deliveries are. */
export async function runWebhooksTrigger(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(args, { command, options: triggerOptions, maxPositionals: 1 });
  if (parsed.help) {
    printLine(io.stdout, triggerUsage);
    return 0;
  }
  const { values, positionals } = parsed;
  const event = readEvent(positionals[0]);
  if (values.request !== undefined && !requestIdPattern.test(values.request)) {
    throw new UsageError(
      `--request must be a request id (01 and 64 lowercase hex digits), got "${values.request}"`,
      command,
    );
  }
  if (values.amount !== undefined) {
    if (event !== "payment.partial")
      throw new UsageError("--amount applies to payment.partial only", command);
    if (!decimalPattern.test(values.amount)) {
      throw new UsageError(
        `--amount must be a decimal amount such as 40 or 12.50, got "${values.amount}"`,
        command,
      );
    }
  }
  const connection = connectToSandbox(values, io, command);

  const receivers = await endpointsReceiving(connection, event);
  const requestId = values.request ?? (await createRequest(connection, io));
  const amount =
    event === "payment.partial"
      ? (values.amount ?? (await halfOfWhatIsLeft(connection, requestId)))
      : undefined;
  const outcome = outcomes[event];
  const request = await callSandbox(connection, `record a ${outcome} payment of request ${requestId}`, () =>
    connection.client.POST("/sandbox/requests/{requestId}/payments", {
      params: { path: { requestId } },
      body: amount === undefined ? { outcome } : { outcome, amount },
    }),
  );
  const payment = request.payments.at(-1);
  printLine(
    io.stdout,
    [
      `Recorded a ${outcome} payment${payment && outcome !== "failed" ? ` of ${payment.amount} ${request.paymentCurrency}` : ""} on request ${requestId}${payment ? ` (tx ${payment.txHash})` : ""}.`,
      `  The request is now ${request.status}: ${request.amountPaid} of ${request.expectedAmount} ${request.paymentCurrency} paid.`,
      receivers.length === 0
        ? `  No webhook endpoint of this account receives ${event}, so nothing is delivered: start \`payreq webhooks listen\` first.`
        : `  ${event} goes to ${receivers.length} webhook endpoint(s): ${receivers.join(", ")}`,
      `  Deliveries: curl -H ${curlApiKeyHeader(connection)} '${connection.server}/sandbox/webhooks/deliveries?requestId=${requestId}'`,
    ].join("\n"),
  );
  return 0;
}

function readEvent(value: string | undefined): TriggeredEvent {
  const names = Object.keys(outcomes).join(", ");
  if (value === undefined) throw new UsageError(`give the event to trigger: ${names}`, command);
  if (!Object.hasOwn(outcomes, value))
    throw new UsageError(`unknown event "${value}": give one of ${names}`, command);
  return value as TriggeredEvent;
}

async function endpointsReceiving(connection: SandboxConnection, event: TriggeredEvent): Promise<string[]> {
  const { endpoints } = await callSandbox(connection, "list the webhook endpoints", () =>
    connection.client.GET("/sandbox/webhooks/endpoints"),
  );
  return endpoints.filter((endpoint) => endpoint.events.includes(event)).map((endpoint) => endpoint.url);
}

async function createRequest(connection: SandboxConnection, io: CliIo): Promise<string> {
  const created = await callSandbox(connection, "create a secure payment", () =>
    connection.client.POST("/v2/secure-payments", { body: { requests: [sampleRequest] } }),
  );
  const requestId = created.requestIds[0] as string;
  printLine(
    io.stdout,
    `Created secure payment ${created.token} (${sampleRequest.amount} ${sampleRequest.invoiceCurrency} paid in ${sampleRequest.paymentCurrency}) with request ${requestId}.`,
  );
  return requestId;
}

async function halfOfWhatIsLeft(connection: SandboxConnection, requestId: string): Promise<string> {
  const request = await callSandbox(connection, `read request ${requestId}`, () =>
    connection.client.GET("/sandbox/requests/{requestId}", { params: { path: { requestId } } }),
  );
  return halfOfRemaining(request.expectedAmount, request.amountPaid);
}
