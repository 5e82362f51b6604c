import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { components } from "../../../generated/schema.d.ts";
import { CommandError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { halfOfRemaining } from "./partial-amount.ts";
import { callSandbox, type SandboxConnection } from "./sandbox-connection.ts";

type SandboxRequest = components["schemas"]["SandboxRequest"];
type PaymentRecord = components["schemas"]["SandboxPaymentRecord"];

/** The request created when none is given: the sandbox's usual example. */
export const sampleRequest = {
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  amount: "125.00",
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
} as const;

/** The payer wallet of the sample recurring payment and the default refund target. */
export const samplePayer = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";

/** What the options of `payreq webhooks trigger` can set, already checked. */
export interface TriggerInput {
  requestId: string | undefined;
  amount: string | undefined;
  subStatus: string | undefined;
  refundTo: string | undefined;
  clientUserId: string | undefined;
  kycStatus: components["schemas"]["SandboxPayerUpdate"]["kycStatus"];
  agreementStatus: components["schemas"]["SandboxPayerUpdate"]["agreementStatus"];
  detailStatus: components["schemas"]["PaymentDetailStatus"] | undefined;
  /** secure_payment.access_rejected: the link, and the wallet it refuses. */
  token: string | undefined;
  wallet: string | undefined;
}

/** What a trigger did: lines to print, and where to read the deliveries. */
export interface TriggerReport {
  lines: string[];
  deliveriesQuery: string;
}

type Trigger = (connection: SandboxConnection, io: CliIo, input: TriggerInput) => Promise<TriggerReport>;

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

/** An active client ID of the account, with the Origin its calls send: none for a backend client ID. */
async function activeClientId(connection: SandboxConnection): Promise<{ clientId: string; origin?: string }> {
  const clientIds = await callSandbox(connection, "list the client IDs", () =>
    connection.client.GET("/v2/client-ids"),
  );
  const active = clientIds.find((record) => record.status === "active");
  if (!active) {
    throw new CommandError(
      "The account has no active client ID to create the request with: create one (POST /v2/client-ids, or POST /v1/client-ids with an empty allowedDomains for a backend one).",
    );
  }
  const [origin] = active.allowedDomains;
  return origin === undefined ? { clientId: active.clientId } : { clientId: active.clientId, origin };
}

/** Creates a request with a client ID of the account (POST /v2/request), as a page or a server would. */
async function createRequestWithClientId(connection: SandboxConnection, io: CliIo): Promise<string> {
  const { clientId, origin } = await activeClientId(connection);
  const created = await callSandbox(connection, `create a request with client ID ${clientId}`, () =>
    connection.client.POST("/v2/request", {
      body: { ...sampleRequest },
      // The client ID stands in for the API key: a call with both is the API key's.
      headers: { "x-api-key": null, "x-client-id": clientId, ...(origin === undefined ? {} : { origin }) },
    }),
  );
  printLine(
    io.stdout,
    `Created request ${created.requestId} (${sampleRequest.amount} ${sampleRequest.invoiceCurrency} paid in ${sampleRequest.paymentCurrency}) with client ID ${clientId}${origin === undefined ? " (backend, no Origin)" : ` from ${origin}`}.`,
  );
  return created.requestId;
}

async function readRequest(connection: SandboxConnection, requestId: string): Promise<SandboxRequest> {
  return callSandbox(connection, `read request ${requestId}`, () =>
    connection.client.GET("/sandbox/requests/{requestId}", { params: { path: { requestId } } }),
  );
}

async function record(connection: SandboxConnection, requestId: string, body: PaymentRecord) {
  return callSandbox(connection, `record a ${body.outcome} payment of request ${requestId}`, () =>
    connection.client.POST("/sandbox/requests/{requestId}/payments", {
      params: { path: { requestId } },
      body,
    }),
  );
}

function describeRecord(outcome: string, request: SandboxRequest): string[] {
  const payment = request.payments.at(-1);
  const moved = payment && (outcome === "paid" || outcome === "partial" || outcome === "refunded");
  return [
    `Recorded a ${outcome} payment${moved ? ` of ${payment.amount} ${request.paymentCurrency}` : ""} on request ${request.requestId}${payment ? ` (tx ${payment.txHash})` : ""}.`,
    `  The request is now ${request.status}: ${request.amountPaid} of ${request.expectedAmount} ${request.paymentCurrency} paid.`,
  ];
}

/**
 * Records one payment outcome on the given request, or on a new one: a secure payment link made
 * with the API key, or, for the `.client_id` duplicates, a request made with a client ID.
 */
function paymentTrigger(
  outcome: "paid" | "partial" | "failed" | "processing",
  createdWith: "link" | "clientId" = "link",
): Trigger {
  return async (connection, io, input) => {
    const requestId =
      input.requestId ??
      (createdWith === "clientId"
        ? await createRequestWithClientId(connection, io)
        : await createRequest(connection, io));
    let body: PaymentRecord = { outcome };
    if (outcome === "partial") {
      const request = await readRequest(connection, requestId);
      body = { outcome, amount: input.amount ?? halfOfRemaining(request.expectedAmount, request.amountPaid) };
    }
    if (outcome === "processing") body = { outcome, subStatus: input.subStatus ?? "initiated" };
    const request = await record(connection, requestId, body);
    return { lines: describeRecord(outcome, request), deliveriesQuery: `requestId=${requestId}` };
  };
}

/** Refunds a request, paying it first when nothing is paid yet. */
const refundTrigger: Trigger = async (connection, io, input) => {
  const requestId = input.requestId ?? (await createRequest(connection, io));
  const lines: string[] = [];
  if ((await readRequest(connection, requestId)).amountPaid === "0") {
    lines.push(...describeRecord("paid", await record(connection, requestId, { outcome: "paid" })));
  }
  const refunded = await record(connection, requestId, {
    outcome: "refunded",
    refundedTo: input.refundTo ?? samplePayer,
    ...(input.amount === undefined ? {} : { amount: input.amount }),
  });
  lines.push(...describeRecord("refunded", refunded));
  return { lines, deliveriesQuery: `requestId=${requestId}` };
};

/** Creates a recurring payment and executes it twice: the second period's request recurs from the first. */
const recurringTrigger: Trigger = async (connection) => {
  const created = await callSandbox(connection, "create a recurring payment", () =>
    connection.client.POST("/sandbox/recurring-payments", {
      body: {
        payer: samplePayer,
        payee: sampleRequest.payee,
        currency: "USDC-base",
        amount: "10",
        totalPayments: 12,
        processedPayments: 0,
        status: "active",
        spender: "0x1aF3f22685AcdDc788B3730ed415912d8f654420",
      },
    }),
  );
  const execute = () =>
    callSandbox(connection, `execute recurring payment ${created.id}`, () =>
      connection.client.POST("/sandbox/recurring-payments/{id}/executions", {
        params: { path: { id: created.id } },
        body: { outcome: "success" },
      }),
    );
  const first = await execute();
  const second = await execute();
  return {
    lines: [
      `Created recurring payment ${created.id} (10 USDC-base a period) and executed two periods.`,
      `  Request ${second.request.requestId} recurs from ${first.request.requestId}.`,
    ],
    deliveriesQuery: `requestId=${second.request.requestId}`,
  };
};

async function registerPayer(connection: SandboxConnection, clientUserId: string): Promise<void> {
  await callSandbox(connection, `register payer ${clientUserId}`, () =>
    connection.client.POST("/v2/payer", {
      body: {
        clientUserId,
        email: "sample.payer@example.com",
        firstName: "Sample",
        lastName: "Payer",
        beneficiaryType: "individual",
        dateOfBirth: "1990-01-31",
        addressLine1: "1 Sample Street",
        city: "Berlin",
        state: "BE",
        postcode: "10115",
        country: "DE",
        nationality: "DE",
        phone: "+4915100000000",
        ssn: "00000000000",
      },
    }),
  );
}

/** A payer id of its own for each run, so that the change is always a change. */
const freshClientUserId = () => `payreq-cli-${Date.now().toString(36)}`;

/** Registers a payer when none is named, then moves its compliance on. */
const complianceTrigger: Trigger = async (connection, _io, input) => {
  const clientUserId = input.clientUserId ?? freshClientUserId();
  if (input.clientUserId === undefined) await registerPayer(connection, clientUserId);
  const payer = await callSandbox(connection, `update payer ${clientUserId}`, () =>
    connection.client.PATCH("/sandbox/payers/{clientUserId}", {
      params: { path: { clientUserId } },
      body: {
        kycStatus: input.kycStatus ?? "approved",
        agreementStatus: input.agreementStatus ?? "completed",
      },
    }),
  );
  return {
    lines: [
      `Payer ${clientUserId} now has kycStatus ${payer.kycStatus} and agreementStatus ${payer.agreementStatus} (compliant: ${payer.isCompliant}).`,
    ],
    deliveriesQuery: "",
  };
};

/**
 * Registers a payer and stores payment details for it, which the sandbox approves at once; then
 * moves them to `--status` when another status is asked for.
 */
const paymentDetailTrigger: Trigger = async (connection, _io, input) => {
  const clientUserId = freshClientUserId();
  await registerPayer(connection, clientUserId);
  const stored = await callSandbox(connection, `store payment details for ${clientUserId}`, () =>
    connection.client.POST("/v1/payer/{clientUserId}/payment-details", {
      params: { path: { clientUserId } },
      body: {
        bankName: "Sample Bank",
        accountName: "Sample Payer",
        beneficiaryType: "individual",
        currency: "EUR",
        addressLine1: "1 Sample Street",
        city: "Berlin",
        country: "DE",
        dateOfBirth: "1990-01-31",
        postalCode: "10115",
        iban: "DE89370400440532013000",
        rails: "local",
      },
    }),
  );
  const paymentDetailsId = stored.payment_detail.id;
  const lines = [
    `Stored payment details ${paymentDetailsId} for payer ${clientUserId}; the sandbox approved them.`,
  ];
  if (input.detailStatus !== undefined && input.detailStatus !== "approved") {
    const status = input.detailStatus;
    const detail = await callSandbox(connection, `set payment details ${paymentDetailsId} to ${status}`, () =>
      connection.client.PATCH("/sandbox/payers/{clientUserId}/payment-details/{paymentDetailsId}", {
        params: { path: { clientUserId, paymentDetailsId } },
        body: { status },
      }),
    );
    lines.push(`  Their status is now ${detail.status}.`);
  }
  return { lines, deliveriesQuery: "" };
};

/** The `session_token=...` pair an answer sets, or a CommandError saying what was being done. */
function sessionCookieOf(response: Response, doing: string): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("session_token="));
  if (!cookie) throw new CommandError(`could not ${doing}: the server set no session cookie`);
  return cookie.split(";")[0] as string;
}

/** Signs a new wallet in (a key made for this run): answers its address and session cookie. */
async function signInNewWallet(connection: SandboxConnection): Promise<{ address: string; cookie: string }> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = await callSandbox(connection, "ask for a wallet sign-in challenge", () =>
    connection.client.POST("/v1/auth/wallet/challenge", { body: { address: wallet.address, chainId: 1 } }),
  );
  const signature = await wallet.signMessage({ message: challenge.message });
  const { challengeId, nonce, message } = challenge;
  let response: Response | undefined;
  await callSandbox(connection, "sign the wallet in", async () => {
    const result = await connection.client.POST("/v1/auth/wallet/verify", {
      body: { challengeId, nonce, message, signature },
    });
    response = result.response;
    return result;
  });
  return { address: wallet.address, cookie: sessionCookieOf(response as Response, "sign the wallet in") };
}

/**
 * Creates an orchestrator of the account and a link intent of it, signs a new wallet in,
 * registers its payee destination and completes the intent: `client_id.linked` goes to the
 * account's endpoints (and the orchestrator's webhooks, of which it has none).
 */
const clientIdLinkedTrigger: Trigger = async (connection) => {
  const { orchestrator, rawKey } = await callSandbox(connection, "create an orchestrator", () =>
    connection.client.POST("/v2/orchestrators", { body: { orchestratorName: "payreq CLI orchestrator" } }),
  );
  const asOrchestrator = { "x-orchestrator-key": rawKey };
  const { intent } = await callSandbox(connection, "create a link intent", () =>
    connection.client.POST("/v2/orchestrators/client-id-link-intents", {
      body: {
        clientIdName: "Sample recipient",
        domains: ["https://recipient.example.com"],
        externalId: "cli-sample",
      },
      headers: asOrchestrator,
    }),
  );
  const recipient = await signInNewWallet(connection);
  const asRecipient = { cookie: recipient.cookie };
  const destination = await callSandbox(connection, "register the recipient's payee destination", () =>
    connection.client.POST("/v1/payee-destination", {
      body: { chainId: 11155111, tokenAddress: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C" },
      headers: asRecipient,
    }),
  );
  const completed = await callSandbox(connection, "complete the link intent", () =>
    connection.client.POST("/v1/client-id-links/intents/{token}", {
      params: { path: { token: intent.accessToken } },
      body: { kyt: { provider: null } },
      headers: asRecipient,
    }),
  );
  return {
    lines: [
      `Created orchestrator ${orchestrator.id} and its link intent ${intent.id}.`,
      `  Wallet ${recipient.address} signed in, registered ${destination.destinationId} and completed the intent: client ID ${completed.clientId.clientId} is linked (${completed.link.id}).`,
    ],
    deliveriesQuery: "",
  };
};

/**
 * Sends a test delivery of an event the sandbox does not produce (it screens no payer and runs
 * no payment page) to each endpoint of the account, in the shape the service documents.
 */
function testDeliveryTrigger(event: "kyt.screening.completed" | "secure_payment.user_event"): Trigger {
  return async (connection) => {
    const endpoints = await allEndpoints(connection);
    for (const endpoint of endpoints) {
      await callSandbox(connection, `send a test ${event} to ${endpoint.id}`, () =>
        connection.client.POST("/sandbox/webhooks/endpoints/{endpointId}/test", {
          params: { path: { endpointId: endpoint.id } },
          body: { event },
        }),
      );
    }
    return {
      lines: [
        `The sandbox does not produce ${event} on its own: sent a test delivery (x-request-network-test: true) with placeholder values to each of the ${endpoints.length} webhook endpoint(s) of the account.`,
      ],
      deliveriesQuery: "",
    };
  };
}

/**
 * Has a link refuse a wallet (POST /sandbox/secure-payments/{token}/access-rejections): a new
 * link made with a client ID of the account unless --token names one. The sandbox sends one
 * event per wallet and link every 10 minutes of its clock; a repeat is reported as suppressed.
 */
const accessRejectedTrigger: Trigger = async (connection, io, input) => {
  let token = input.token;
  if (token === undefined) {
    const { clientId, origin } = await activeClientId(connection);
    const created = await callSandbox(connection, `create a secure payment with client ID ${clientId}`, () =>
      connection.client.POST("/v2/secure-payments", {
        body: { requests: [sampleRequest] },
        headers: { "x-api-key": null, "x-client-id": clientId, ...(origin === undefined ? {} : { origin }) },
      }),
    );
    token = created.token;
    printLine(io.stdout, `Created secure payment ${token} with client ID ${clientId}.`);
  }
  const wallet = input.wallet ?? samplePayer;
  const linkToken = token;
  const result = await callSandbox(connection, `refuse ${wallet} on secure payment ${linkToken}`, () =>
    connection.client.POST("/sandbox/secure-payments/{token}/access-rejections", {
      params: { path: { token: linkToken } },
      body: { wallet },
    }),
  );
  return {
    lines: [
      result.sent
        ? `Secure payment ${linkToken} refused ${result.wallet}: secure_payment.access_rejected is sent; a repeat before ${result.suppressedUntil} sends nothing.`
        : `Secure payment ${linkToken} refused ${result.wallet} again: nothing is sent, as the service suppresses repeats until ${result.suppressedUntil}.`,
    ],
    deliveriesQuery: `requestId=${result.requestId}`,
  };
};

/** Every webhook endpoint of the account, a page at a time. */
export async function allEndpoints(
  connection: SandboxConnection,
): Promise<components["schemas"]["SandboxWebhookEndpoint"][]> {
  const endpoints: components["schemas"]["SandboxWebhookEndpoint"][] = [];
  let cursor: string | null = null;
  do {
    const query: { cursor?: string } = cursor === null ? {} : { cursor };
    const page: components["schemas"]["SandboxWebhookEndpointList"] = await callSandbox(
      connection,
      "list the webhook endpoints",
      () => connection.client.GET("/sandbox/webhooks/endpoints", { params: { query } }),
    );
    endpoints.push(...page.endpoints);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return endpoints;
}

/** How `payreq webhooks trigger` makes each event happen, by event name. */
export const triggers = {
  "payment.confirmed": paymentTrigger("paid"),
  "payment.partial": paymentTrigger("partial"),
  "payment.confirmed.checkout": paymentTrigger("paid"),
  "payment.partial.checkout": paymentTrigger("partial"),
  "payment.confirmed.client_id": paymentTrigger("paid", "clientId"),
  "payment.partial.client_id": paymentTrigger("partial", "clientId"),
  "payment.failed": paymentTrigger("failed"),
  "payment.processing": paymentTrigger("processing"),
  "payment.refunded": refundTrigger,
  "request.recurring": recurringTrigger,
  "compliance.updated": complianceTrigger,
  "payment_detail.updated": paymentDetailTrigger,
  "client_id.linked": clientIdLinkedTrigger,
  "kyt.screening.completed": testDeliveryTrigger("kyt.screening.completed"),
  "secure_payment.user_event": testDeliveryTrigger("secure_payment.user_event"),
  "secure_payment.access_rejected": accessRejectedTrigger,
} satisfies Record<string, Trigger>;

/** The events a trigger sends as test deliveries to every endpoint, whatever the events it takes. */
export const testDeliveryEvents: readonly string[] = ["kyt.screening.completed", "secure_payment.user_event"];

export type TriggeredEvent = keyof typeof triggers;
