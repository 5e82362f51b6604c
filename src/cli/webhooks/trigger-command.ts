import type { components } from "../../../generated/schema.d.ts";
import { schemaEnum, schemaPropertyEnum } from "../../spec/schemas.ts";
import { UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import {
  connectToSandbox,
  curlApiKeyHeader,
  defaultServerUrl,
  type SandboxConnection,
  sandboxConnectionOptions,
} from "./sandbox-connection.ts";
import {
  allEndpoints,
  samplePayer,
  sampleRequest,
  type TriggeredEvent,
  type TriggerInput,
  testDeliveryEvents,
  triggers,
} from "./trigger-plans.ts";

const command = "payreq webhooks trigger";

const requestIdPattern = /^01[0-9a-f]{64}$/;
const decimalPattern = /^\d+(\.\d+)?$/;
const addressPattern = /^0x[0-9a-fA-F]{40}$/;

type PayerUpdate = components["schemas"]["SandboxPayerUpdate"];
const kycStatuses = schemaPropertyEnum<NonNullable<PayerUpdate["kycStatus"]>>(
  "SandboxPayerUpdate",
  "kycStatus",
);
const agreementStatuses = schemaPropertyEnum<NonNullable<PayerUpdate["agreementStatus"]>>(
  "SandboxPayerUpdate",
  "agreementStatus",
);
const detailStatuses = schemaEnum<components["schemas"]["PaymentDetailStatus"]>("PaymentDetailStatus");

const triggerUsage = `Usage: ${command} EVENT [options]

Makes the reference server (payreq serve) send a real, signed webhook: it makes the event's
change happen through the sandbox API, and the server delivers the event to every webhook
endpoint of the account (start \`payreq webhooks listen\` first to see it arrive).

  payment.confirmed       the request is paid in full
  payment.partial         part of what is left is paid (--amount, default half of it)
  payment.confirmed.checkout, payment.partial.checkout
                          the same; the new request is a secure payment link's, so its
                          payment also sends this duplicate
  payment.confirmed.client_id, payment.partial.client_id
                          the same, on a new request made with the account's first active
                          client ID (with its first allowed domain as Origin, none for a
                          backend one), so its payment also sends this duplicate
  payment.failed          a payment attempt fails (insufficient_funds); the request stays payable
  payment.processing      a crypto-to-fiat step is reached (--sub-status, default initiated)
  payment.refunded        what was paid goes back to --refund-to (the request is paid first
                          when nothing is paid yet; --amount refunds part of it)
  request.recurring       a recurring payment runs two periods: the second period's request
                          recurs from the first (payment.confirmed is sent for both)
  compliance.updated      a payer (a new one unless --client-user-id) gets --kyc-status and
                          --agreement-status (default approved and completed)
  payment_detail.updated  a new payer's bank details are stored, then checked (--status,
                          default approved)
  client_id.linked        a new orchestrator of the account invites a recipient; a new wallet
                          signs in, registers its payee destination and completes the intent
  secure_payment.access_rejected
                          a link (--token, or a new one made with the account's first active
                          client ID) refuses --wallet (default ${samplePayer}); the
                          sandbox sends one event per wallet and link every 10 minutes of its
                          clock, and says when a repeat is suppressed
  kyt.screening.completed, secure_payment.user_event
                          the sandbox does not produce these: a test delivery with placeholder
                          values goes to every endpoint of the account

The payment events use --request, or a new secure payment link for ${sampleRequest.amount} ${sampleRequest.invoiceCurrency} paid in
${sampleRequest.paymentCurrency} (POST /v2/secure-payments).

Options:
  --request ID          the request to pay (01 and 64 hex digits); a new one when absent
  --amount A            payment.partial: the amount paid; payment.refunded: the amount refunded
  --sub-status S        payment.processing: initiated, pending_internal_assessment,
                        ongoing_checks, sending_fiat, fiat_sent, bounced or retry_required
  --refund-to ADDRESS   payment.refunded: the wallet the refund goes to
  --client-user-id ID   compliance.updated: a payer registered with POST /v2/payer
  --kyc-status S        compliance.updated: ${kycStatuses.join(", ")}
  --agreement-status S  compliance.updated: ${agreementStatuses.join(", ")}
  --status S            payment_detail.updated: ${detailStatuses.join(", ")}
  --token T             secure_payment.access_rejected: the secure payment link
  --wallet ADDRESS      secure_payment.access_rejected: the refused wallet
  --server URL          the reference server (default ${defaultServerUrl})
  --api-key K           its API key (default: PAYREQ_API_KEY, else the sandbox's sample key)
  -h, --help            show this help

Examples:
  payreq webhooks trigger payment.confirmed
  payreq webhooks trigger payment.partial --amount 40
  payreq webhooks trigger payment.failed --request 015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9
  payreq webhooks trigger payment.processing --sub-status fiat_sent
  payreq webhooks trigger compliance.updated --kyc-status rejected`;

const triggerOptions = {
  request: { type: "string" },
  amount: { type: "string" },
  "sub-status": { type: "string" },
  "refund-to": { type: "string" },
  "client-user-id": { type: "string" },
  "kyc-status": { type: "string" },
  "agreement-status": { type: "string" },
  status: { type: "string" },
  token: { type: "string" },
  wallet: { type: "string" },
  ...sandboxConnectionOptions,
} as const;

/** Which events each option applies to; an option given with another event is a usage error. */
const optionEvents: Record<string, TriggeredEvent[]> = {
  request: [
    "payment.confirmed",
    "payment.partial",
    "payment.confirmed.checkout",
    "payment.partial.checkout",
    "payment.confirmed.client_id",
    "payment.partial.client_id",
    "payment.failed",
    "payment.processing",
    "payment.refunded",
  ],
  amount: ["payment.partial", "payment.partial.checkout", "payment.partial.client_id", "payment.refunded"],
  "sub-status": ["payment.processing"],
  "refund-to": ["payment.refunded"],
  "client-user-id": ["compliance.updated"],
  "kyc-status": ["compliance.updated"],
  "agreement-status": ["compliance.updated"],
  status: ["payment_detail.updated"],
  token: ["secure_payment.access_rejected"],
  wallet: ["secure_payment.access_rejected"],
};

/** Makes the event's change happen, and says what it did and where the deliveries are. */
export async function runWebhooksTrigger(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(args, { command, options: triggerOptions, maxPositionals: 1 });
  if (parsed.help) {
    printLine(io.stdout, triggerUsage);
    return 0;
  }
  const { values, positionals } = parsed;
  const event = readEvent(positionals[0]);
  for (const [option, events] of Object.entries(optionEvents)) {
    if (values[option as keyof typeof values] !== undefined && !events.includes(event)) {
      throw new UsageError(`--${option} applies to ${events.join(", ")} only`, command);
    }
  }
  const input = readInput(values);
  const connection = connectToSandbox(values, io, command);

  const receivers = await endpointsReceiving(connection, event);
  const report = await triggers[event](connection, io, input);
  printLine(
    io.stdout,
    [
      ...report.lines,
      receivers.length === 0
        ? `  No webhook endpoint of this account receives ${event}, so nothing is delivered: start \`payreq webhooks listen\` first.`
        : `  ${event} goes to ${receivers.length} webhook endpoint(s): ${receivers.join(", ")}`,
      `  Deliveries: curl -H ${curlApiKeyHeader(connection)} '${connection.server}/sandbox/webhooks/deliveries${report.deliveriesQuery ? `?${report.deliveriesQuery}` : ""}'`,
    ].join("\n"),
  );
  return 0;
}

function readEvent(value: string | undefined): TriggeredEvent {
  const names = Object.keys(triggers).join(", ");
  if (value === undefined) throw new UsageError(`give the event to trigger: ${names}`, command);
  if (!Object.hasOwn(triggers, value))
    throw new UsageError(`unknown event "${value}": give one of ${names}`, command);
  return value as TriggeredEvent;
}

function oneOf<Value extends string>(
  option: string,
  value: string | undefined,
  allowed: readonly Value[],
): Value | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value))
    return value as Value | undefined;
  throw new UsageError(`--${option} must be one of ${allowed.join(", ")}, got "${value}"`, command);
}

function readInput(values: Record<string, string | boolean | undefined>): TriggerInput {
  const text = (name: string) => values[name] as string | undefined;
  const requestId = text("request");
  if (requestId !== undefined && !requestIdPattern.test(requestId)) {
    throw new UsageError(
      `--request must be a request id (01 and 64 lowercase hex digits), got "${requestId}"`,
      command,
    );
  }
  const amount = text("amount");
  if (amount !== undefined && !decimalPattern.test(amount)) {
    throw new UsageError(`--amount must be a decimal amount such as 40 or 12.50, got "${amount}"`, command);
  }
  const refundTo = text("refund-to");
  if (refundTo !== undefined && !addressPattern.test(refundTo)) {
    throw new UsageError(
      `--refund-to must be a wallet address (0x and 40 hex digits), got "${refundTo}"`,
      command,
    );
  }
  const wallet = text("wallet");
  if (wallet !== undefined && !addressPattern.test(wallet)) {
    throw new UsageError(
      `--wallet must be a wallet address (0x and 40 hex digits), got "${wallet}"`,
      command,
    );
  }
  const token = text("token");
  if (token === "") throw new UsageError("--token must not be empty", command);
  const clientUserId = text("client-user-id");
  if (clientUserId === "") throw new UsageError("--client-user-id must not be empty", command);
  return {
    requestId,
    amount,
    subStatus: text("sub-status"),
    refundTo,
    clientUserId,
    kycStatus: oneOf("kyc-status", text("kyc-status"), kycStatuses),
    agreementStatus: oneOf("agreement-status", text("agreement-status"), agreementStatuses),
    detailStatus: oneOf("status", text("status"), detailStatuses),
    token,
    wallet,
  };
}

/** The URLs of the account's endpoints subscribed to `event`, read page by page. */
async function endpointsReceiving(connection: SandboxConnection, event: TriggeredEvent): Promise<string[]> {
  const everyOne = testDeliveryEvents.includes(event);
  return (await allEndpoints(connection))
    .filter((endpoint) => everyOne || (endpoint.events as string[]).includes(event))
    .map((endpoint) => endpoint.url);
}
