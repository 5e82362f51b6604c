import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import type { NetworkName, PaymentContracts } from "../chain/index.ts";
import { wasmKeccakReady } from "../chain/keccak-utf8.ts";
import { credentialHeaders, readPathOperations, sessionCookieName } from "../spec/operations.ts";
import { loadBundledSpec, type SpecDocument } from "../spec/spec-document.ts";
import { createApiKeyVerifier } from "./auth/api-keys.ts";
import { type Clock, systemClock } from "./clock.ts";
import { parseConfig } from "./config/load-config.ts";
import { createDefaultConfig, type ResolvedConfig, type SandboxConfig } from "./config/sandbox-config.ts";
import { loadConfiguredFaults } from "./domain/sandbox/configured-faults.ts";
import type { ServerContext } from "./domain/shared/context.ts";
import { answerPreferredExample } from "./forced-answers/answer-preferred.ts";
import { applyFaults } from "./http/apply-faults.ts";
import { authenticate } from "./http/authenticate.ts";
import { answerClientErrors } from "./http/client-errors.ts";
import { answerCors } from "./http/cors.ts";
import { readCorsPolicy } from "./http/cors-policy.ts";
import { dispatchOperation } from "./http/dispatch-operation.ts";
import { answerErrors } from "./http/error-handler.ts";
import { createExpressHttpServer } from "./http/express-http-server.ts";
import { inSequence } from "./http/in-sequence.ts";
import { parseJsonBody } from "./http/parse-json-body.ts";
import { createRateLimiter, limitClientIdRate, rateLimitBlockMs } from "./http/rate-limit.ts";
import { waitUntilReady } from "./http/readiness.ts";
import { assignRequestId } from "./http/request-id.ts";
import { logRequests, type RequestLogOptions } from "./http/request-log.ts";
import { answerUnknownPath, resolveOperation } from "./http/resolve-operation.ts";
import { buildRouteTable } from "./http/route-table.ts";
import { checkHandlersCoverSpec } from "./operations/check-handlers.ts";
import { operationHandlers } from "./operations/operation-table.ts";
import { pagesRouter } from "./pages/pages-router.ts";
import { reachableUrlHost } from "./reachable-host.ts";
import { seedConfiguredRecords } from "./seed-records.ts";
import type { ServerLogger } from "./server-logger.ts";
import { createMemoryStore } from "./store/memory-store.ts";
import type { Store } from "./store/store.ts";
import { validateRequests } from "./validation/validate-request.ts";
import { WebhookDispatcher } from "./webhook-delivery/dispatcher.ts";
import { timerScheduler, type WebhookScheduler } from "./webhook-delivery/scheduler.ts";
import { createTargetAllowList } from "./webhook-delivery/target-allow-list.ts";

export interface CreateServerOptions {
  /** Credentials and behaviour; the built-in sandbox configuration when absent. */
  config?: SandboxConfig;
  /** The time source every account's sandbox clock runs on (the system clock by default). */
  clock?: Clock;
  /** Where records live; the in-memory store by default. The caller closes a store it gives. */
  store?: Store;
  /** Validate every response against the spec (default true); switch off for speed. */
  validateResponses?: boolean;
  /** Pay through these contracts instead of the official ones, by network (local deployments). */
  contracts?: Partial<Record<NetworkName, PaymentContracts>>;
  /** The OpenAPI document to serve (default generated/openapi.json). */
  spec?: SpecDocument;
  logger?: ServerLogger;
  /** Logs one line per request answered (`payreq serve` does, unless --quiet); none without it. */
  requestLog?: RequestLogOptions;
  /** What the webhook worker waits between attempts with (timers by default). */
  webhookScheduler?: WebhookScheduler;
  /**
   * A chain whose payments the server detects while it listens: the fee proxies' logs on the node
   * at `rpcUrl`, which stands for `network` (a local sepolia, see src/chain/local/).
   */
  chain?: { rpcUrl: string; network: NetworkName; pollIntervalMs?: number };
}

export interface RunningServer {
  /**
   * The origin the server is reached at, such as `http://127.0.0.1:41234`: the address it is
   * bound to, or loopback when bound to every interface (`0.0.0.0`, `::`).
   */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface PayreqServer {
  app: Express;
  store: Store;
  /** The time source every account's sandbox clock runs on, each with the offset the account set. */
  baseClock: Clock;
  /** The configuration with its defaults filled in. */
  config: ResolvedConfig;
  /** The public origin links are built from (config `publicBaseUrl`, else the listening address). */
  publicOrigin(): string;
  /**
   * The webhook worker: it runs while the server listens, and `close()` stops it (aborting
   * attempts in flight). `settled()` resolves once every delivery is delivered or dead.
   */
  webhooks: Pick<WebhookDispatcher, "settled" | "start" | "stop">;
  /** Listens (port 0 picks a free one) and resolves once ready. */
  listen(options?: { port?: number; host?: string }): Promise<RunningServer>;
}

const consoleLogger: ServerLogger = { error: (message, error) => console.error(message, error) };

/** The reference server: Express 5 with every request and response validated against the spec. */
export function createServer(options: CreateServerOptions = {}): PayreqServer {
  const config = parseConfig(options.config ?? createDefaultConfig(), "the server configuration");
  const spec = options.spec ?? loadBundledSpec();
  const operations = readPathOperations(spec);
  checkHandlersCoverSpec(operations, operationHandlers);
  const store = options.store ?? createMemoryStore();
  const baseClock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  const routes = buildRouteTable(operations);
  const headers = credentialHeaders(spec);
  let listeningOrigin = "http://127.0.0.1:3000";
  const publicOrigin = () => config.publicBaseUrl ?? listeningOrigin;
  const webhookAllowList = createTargetAllowList(config.allowWebhookTargets);
  const faults = loadConfiguredFaults(config, operations, baseClock.now());

  const dispatcher = new WebhookDispatcher({
    store,
    baseClock,
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    limits: {
      total: config.maxConcurrentWebhookAttempts,
      perEndpoint: config.maxConcurrentWebhookAttemptsPerEndpoint,
    },
    allowList: webhookAllowList,
    scheduler: options.webhookScheduler ?? timerScheduler,
    logger,
    ...(store.shared ? { pollIntervalMs: config.webhookPollIntervalMs } : {}),
    eventRetention: config.eventLogRetention,
    deliveryRetention: config.webhookDeliveryRetention,
  });

  const ctx: ServerContext = {
    store,
    baseClock,
    contractOverrides: options.contracts ?? {},
    securePaymentLifetimeSeconds: config.securePaymentLifetimeSeconds,
    publicOrigin,
    securePaymentPageUrl: () => config.securePaymentPageUrl ?? `${publicOrigin()}/pay`,
    webhooks: {
      allowList: webhookAllowList,
      maxEndpointsPerAccount: config.maxWebhookEndpointsPerAccount,
      enqueue: (deliveryId) => dispatcher.enqueue(deliveryId),
    },
    auth: {
      sessionCookie: sessionCookieName(spec),
      sessionLifetimeSeconds: config.sessionLifetimeSeconds,
      walletChallengeLifetimeSeconds: config.walletChallengeLifetimeSeconds,
    },
    faults,
  };

  // The first requests hash payment references in WebAssembly (keccak-utf8.ts).
  const ready = Promise.all([seedConfiguredRecords(store, config, baseClock.now()), wasmKeccakReady]);
  const limiter = createRateLimiter({
    limit: config.clientIdRateLimitPerMinute,
    ...(config.rateLimit ? { blockMs: rateLimitBlockMs } : {}),
  });

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  if (options.requestLog) {
    app.use(
      logRequests(
        options.requestLog,
        operations.map((operation) => operation.key),
      ),
    );
  }
  // Every step of the API in one Express layer; a path of no operation goes on to the pages.
  app.use(
    inSequence([
      waitUntilReady(ready),
      assignRequestId(),
      answerCors(store, publicOrigin, readCorsPolicy(spec, operations)),
      resolveOperation(routes),
      authenticate({
        verifyApiKey: createApiKeyVerifier(config.accounts),
        store,
        baseClock,
        publicOrigin,
        headers,
        sessionCookie: ctx.auth.sessionCookie,
      }),
      limitClientIdRate(limiter, { perAddress: config.rateLimit }),
      parseJsonBody(),
      validateRequests(spec, {
        strictBodies: config.strictBodies,
        validateResponses: options.validateResponses ?? true,
      }),
      answerPreferredExample(spec),
      applyFaults(faults.book),
      dispatchOperation(operationHandlers, ctx),
    ]),
  );
  app.use(pagesRouter(ctx));
  app.use(answerUnknownPath());
  app.use(answerErrors(logger));

  return {
    app,
    store,
    baseClock,
    config,
    publicOrigin,
    webhooks: dispatcher,
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      await ready;
      const server = createExpressHttpServer(app, { requestTimeoutMs: config.requestTimeoutMs }).listen(
        port,
        host,
      );
      answerClientErrors(server);
      await new Promise<void>((resolve, reject) => {
        server.once("listening", resolve);
        server.once("error", reject);
      });
      const address = server.address() as AddressInfo;
      const url = `http://${reachableUrlHost(address.address)}:${address.port}`;
      listeningOrigin = url;
      const closeHttp = () =>
        new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        });
      // Loaded only for a chain: a server without one never reads the chain code.
      const detector = options.chain
        ? await import("./chain-detection/payment-detector.ts").then(
            ({ PaymentDetector }) =>
              new PaymentDetector({
                store,
                baseClock,
                logger,
                ...(options.chain as NonNullable<typeof options.chain>),
              }),
          )
        : undefined;
      // The workers stop with the server: no timer outlives it, no attempt is left running.
      const close = async () => {
        await Promise.all([closeHttp(), dispatcher.stop(), detector?.stop()]);
      };
      dispatcher.start();
      detector?.start();
      return { url, port: address.port, close };
    },
  };
}
