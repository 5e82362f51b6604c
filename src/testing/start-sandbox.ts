import createClient from "openapi-fetch";
import type { paths } from "../../generated/schema.d.ts";
import type { CliIo } from "../cli/cli-io.ts";
import { loopbackWebhookTargets } from "../cli/serve/local-webhook-targets.ts";
import { callSandbox, type SandboxConnection } from "../cli/webhooks/sandbox-connection.ts";
import { type TriggerInput, triggers } from "../cli/webhooks/trigger-plans.ts";
import { type ReceivedDelivery, startWebhookListener } from "../cli/webhooks/webhook-listener.ts";
import { parseConfig } from "../server/config/load-config.ts";
import { createDefaultConfig, sampleCredentials } from "../server/config/sandbox-config.ts";
import { createServer } from "../server/create-server.ts";
import type { Store } from "../server/store/store.ts";
import { createCapturedWebhooks, DeliveryLog } from "./captured-webhooks.ts";
import type { Sandbox, SandboxOptions, TriggerableEvent, TriggerOptions } from "./sandbox-types.ts";

/** Where the triggers' narration goes: a test reads the sandbox, not the lines a terminal shows. */
const silentIo: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

/** The configuration: the built-in sandbox account, local webhook receivers allowed, then `given`'s members. */
function sandboxConfig(given: Record<string, unknown> | undefined) {
  return parseConfig(
    {
      ...createDefaultConfig(),
      ...given,
      allowWebhookTargets: [...loopbackWebhookTargets, ...((given?.allowWebhookTargets as string[]) ?? [])],
    },
    "the sandbox's config option",
  );
}

async function openStore(databaseUrl: string | undefined): Promise<Store | undefined> {
  if (databaseUrl === undefined) return undefined;
  const { createPostgresStore } = await import("../server/store/postgres/postgres-store.ts");
  return createPostgresStore({ connectionString: databaseUrl });
}

/**
 * Starts a reference server in this process, on a free port of 127.0.0.1, with the built-in
 * sandbox account, and (unless `captureWebhooks: false`) a receiver that keeps the account's
 * webhook deliveries. Stop it with `stop()` (in an `afterAll`).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = sandboxConfig(options.config);
  const store = await openStore(options.databaseUrl);
  const server = createServer({ config, ...(store ? { store } : {}) });
  const running = await server.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const apiKey = config.accounts[0]?.apiKeys[0] ?? sampleCredentials.apiKey;
  const connection: SandboxConnection = {
    server: running.url,
    client: createClient<paths>({ baseUrl: running.url, headers: { "x-api-key": apiKey } }),
    apiKeyHint: apiKey,
  };
  const { client } = connection;
  const stops: (() => Promise<void>)[] = [running.close, async () => store?.close()];
  const stop = async () => {
    for (const close of stops.splice(0)) await close();
  };
  try {
    const deliveries = new DeliveryLog();
    let webhooks = createCapturedWebhooks(undefined, deliveries);
    if (options.captureWebhooks !== false) {
      let secret: string | undefined;
      const listener = await startWebhookListener({
        port: 0,
        host: "127.0.0.1",
        secret: () => secret,
        forwardTo: undefined,
        forwardTimeoutMs: 0,
        onDelivery: (delivery: ReceivedDelivery) => deliveries.record(delivery),
      });
      stops.unshift(listener.close);
      const endpoint = await callSandbox(connection, "register the capture receiver", () =>
        client.POST("/sandbox/webhooks/endpoints", { body: { url: listener.url } }),
      );
      secret = endpoint.secret;
      webhooks = createCapturedWebhooks({ url: listener.url, endpointId: endpoint.id, secret }, deliveries);
    }
    const moveClock = async (
      body: paths["/sandbox/clock"]["post"]["requestBody"]["content"]["application/json"],
    ) =>
      (await callSandbox(connection, "move the sandbox clock", () => client.POST("/sandbox/clock", { body })))
        .now;
    return {
      url: running.url,
      apiKey,
      clientId: sampleCredentials.clientId,
      clientIdOrigin: "http://localhost:5173",
      orchestratorKey: sampleCredentials.orchestratorKey,
      clock: {
        now: async () =>
          (await callSandbox(connection, "read the sandbox clock", () => client.GET("/sandbox/clock"))).now,
        set: (instant) => moveClock({ now: instant instanceof Date ? instant.toISOString() : instant }),
        advance: (seconds) => moveClock({ advanceSeconds: seconds }),
      },
      recordPayment: (requestId, payment) =>
        callSandbox(connection, `record a ${payment.outcome} payment of request ${requestId}`, () =>
          client.POST("/sandbox/requests/{requestId}/payments", {
            params: { path: { requestId } },
            body: payment,
          }),
        ),
      trigger: async (event: TriggerableEvent, input: TriggerOptions = {}) => {
        const plan = triggers[event];
        if (plan === undefined) throw new Error(`trigger: no way to cause "${String(event)}"`);
        await plan(connection, silentIo, toTriggerInput(input));
      },
      faults: {
        add: (fault) =>
          callSandbox(connection, "add a fault", () => client.POST("/sandbox/faults", { body: fault })),
        list: async () =>
          (await callSandbox(connection, "list the faults", () => client.GET("/sandbox/faults"))).faults,
        remove: async (faultId) => {
          await callSandbox(connection, `remove fault ${faultId}`, () =>
            client.DELETE("/sandbox/faults/{faultId}", { params: { path: { faultId } } }),
          );
        },
        clear: async () => {
          await callSandbox(connection, "clear the faults", () => client.DELETE("/sandbox/faults"));
        },
      },
      webhooks,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function toTriggerInput(options: TriggerOptions): TriggerInput {
  return {
    requestId: options.requestId,
    amount: options.amount,
    subStatus: options.subStatus,
    refundTo: options.refundTo,
    clientUserId: options.clientUserId,
    kycStatus: options.kycStatus,
    agreementStatus: options.agreementStatus,
    detailStatus: options.detailStatus,
    token: options.token,
    wallet: options.wallet,
  };
}
