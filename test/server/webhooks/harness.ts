import {
  type CreateServerOptions,
  createDefaultConfig,
  type SandboxConfig,
  type WebhookEndpointConfig,
} from "../../../src/server/index.ts";
import { createSecurePayment, startTestServer, type TestServer, usdcOnBase } from "../helpers.ts";

/**
 * Short retry waits so that a whole schedule runs in well under a second. The timeout stays
 * generous so that a busy machine never turns a slow local answer into a retry; the tests of
 * timeouts set a short one themselves.
 */
export const fastDelivery = { webhookRetryDelaysMs: [20, 20, 20], webhookTimeoutMs: 5_000 };

/** The test receivers listen on 127.0.0.1, which the address guard refuses unless allowed. */
export const localReceivers = { allowWebhookTargets: ["127.0.0.1"] };

export interface WebhookServerOptions extends CreateServerOptions {
  endpoints?: WebhookEndpointConfig[];
  settings?: Partial<SandboxConfig>;
}

/** A test server (fixed clock, free port) with fast webhook retries, local receivers allowed and the given endpoints. */
export async function startWebhookServer(options: WebhookServerOptions = {}): Promise<TestServer> {
  const { endpoints, settings, ...rest } = options;
  const config: SandboxConfig = { ...createDefaultConfig(), ...fastDelivery, ...localReceivers, ...settings };
  const [account] = config.accounts;
  if (account && endpoints) account.webhookEndpoints = endpoints;
  return startTestServer({ config, ...rest });
}

/** Registers an endpoint through the sandbox API; returns its id and secret. */
export async function registerEndpoint(
  server: TestServer,
  url: string,
  events?: string[],
): Promise<{ id: string; secret: string }> {
  const answer = await server.call("POST", "/sandbox/webhooks/endpoints", {
    body: events ? { url, events } : { url },
  });
  if (answer.status !== 201) throw new Error(`endpoint registration failed: ${answer.text}`);
  return answer.body;
}

/**
 * Creates a request for 125 USD in USDC on Base with the API key (POST /v2/request), so that its
 * payments send their core events only; returns its id.
 */
export async function createRequest(server: TestServer): Promise<string> {
  const answer = await server.call("POST", "/v2/request", { body: usdcOnBase() });
  if (answer.status !== 201) throw new Error(`creating the request failed: ${answer.text}`);
  return answer.body.requestId as string;
}

/** Creates a secure payment for 125 USD in USDC on Base; returns its token and its request's id. */
export async function createSecurePaymentRequest(
  server: TestServer,
): Promise<{ token: string; requestId: string }> {
  const { token, requestIds } = await createSecurePayment(server);
  return { token, requestId: requestIds[0] as string };
}

/** Records a payment through the sandbox API, then waits until every delivery is delivered or dead. */
export async function recordPayment(
  server: TestServer,
  requestId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const answer = await server.call("POST", `/sandbox/requests/${requestId}/payments`, { body });
  if (answer.status !== 201) throw new Error(`recording the payment failed: ${answer.text}`);
  await server.server.webhooks.settled();
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the log freely; their assertions check it
export async function deliveriesOf(server: TestServer, query: string): Promise<any[]> {
  const answer = await server.call("GET", `/sandbox/webhooks/deliveries?${query}`);
  if (answer.status !== 200) throw new Error(`reading the delivery log failed: ${answer.text}`);
  return answer.body.deliveries;
}
