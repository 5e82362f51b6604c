import { performance } from "node:perf_hooks";
import { signedDeliveryHeaders } from "../../webhooks/sign.ts";
import type { Clock } from "../clock.ts";
import type { ServerLogger } from "../http/error-handler.ts";
import type { WebhookAttemptRecord, WebhookDeliveryRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { fanOutWebhookEvents } from "./fan-out.ts";
import { postWebhook, type WebhookPostResult } from "./post-webhook.ts";
import type { WebhookScheduler } from "./scheduler.ts";
import type { WebhookTargetAllowList } from "./target-allow-list.ts";

export interface WebhookDispatcherOptions {
  store: Store;
  clock: Clock;
  /** The waits before the retries; their number is the number of retries (at most 3). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** Targets let through the address guard; every other one must reach a public address. */
  allowList: WebhookTargetAllowList;
  scheduler: WebhookScheduler;
  logger: ServerLogger;
}

/** Why a failed attempt failed, when the receiver did answer. */
function describeStatus(statusCode: number): string {
  if (statusCode >= 300 && statusCode < 400) return `answered ${statusCode}: redirects are not followed`;
  return `answered ${statusCode}, not 2xx`;
}

function judge(result: WebhookPostResult): { succeeded: boolean; error: string | null } {
  const { statusCode } = result;
  if (statusCode === null) return { succeeded: false, error: result.error ?? "no answer" };
  if (statusCode >= 200 && statusCode < 300) return { succeeded: true, error: null };
  return { succeeded: false, error: describeStatus(statusCode) };
}

/**
 * The webhook worker. It fans the outbox's webhook events out into deliveries (one per event and
 * endpoint), sends each with its signature, and retries failed attempts on the configured schedule
 * until one succeeds or the last fails (the delivery is then dead). Every attempt is recorded.
 * Deliveries live in the store, so a stopped worker resumes the pending ones when started again.
 */
export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  #running = false;
  /**
   * One controller per attempt under way, which stop() aborts. Each attempt listens to its own
   * signal only: attempts sharing one signal would add a listener each to it, and more than ten
   * in flight would trip Node's MaxListenersExceededWarning.
   */
  readonly #attemptStops = new Set<AbortController>();
  #unsubscribe: (() => void) | undefined;
  readonly #timers = new Map<string, { cancel: () => void }>();
  readonly #inFlight = new Map<string, Promise<void>>();
  #fanOut: Promise<void> = Promise.resolve();
  #busy = 0;
  #idleWaiters: (() => void)[] = [];

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
  }

  /** Starts delivering: what the outbox holds past the cursor, pending deliveries, then new events. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = this.#options.store.onEventsCommitted(() => this.#requestFanOut());
    this.#requestFanOut();
    this.#track(
      this.#resumePending().catch((error) =>
        this.#options.logger.error("resuming pending webhook deliveries failed", error),
      ),
    );
  }

  /** Stops: cancels waiting retries, aborts attempts in flight (left pending), and waits for them. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const timer of this.#timers.values()) {
      timer.cancel();
      this.#release();
    }
    this.#timers.clear();
    for (const attemptStop of this.#attemptStops) attemptStop.abort();
    await Promise.allSettled([...this.#inFlight.values(), this.#fanOut]);
  }

  /** Sends a pending delivery now (a test event or a redelivery); a stopped worker sends it once started. */
  enqueue(deliveryId: string): void {
    this.#schedule(deliveryId, 0);
  }

  /** Resolves once no delivery is waiting or in flight: every one is delivered or dead. */
  settled(): Promise<void> {
    if (this.#busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #track(work: Promise<unknown>): void {
    this.#busy++;
    work.then(
      () => this.#release(),
      () => this.#release(),
    );
  }

  #release(): void {
    this.#busy--;
    if (this.#busy > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #requestFanOut(): void {
    if (!this.#running) return;
    const run = this.#fanOut.then(async () => {
      if (!this.#running) return;
      const created = await fanOutWebhookEvents(this.#options.store, this.#options.clock.now());
      for (const id of created) this.#schedule(id, 0);
    });
    this.#fanOut = run.catch((error) => this.#options.logger.error("webhook fan-out failed", error));
    this.#track(this.#fanOut);
  }

  async #resumePending(): Promise<void> {
    const pending = await this.#options.store.listWebhookDeliveries({ state: "pending" });
    const longest = Math.max(0, ...this.#options.retryDelaysMs);
    const now = this.#options.clock.now().getTime();
    for (const delivery of pending) {
      const due = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - now : 0;
      this.#schedule(delivery.id, Math.min(Math.max(due, 0), longest));
    }
  }

  /** Plans the next attempt; only the attempt under way (`followUp`) may plan one while it runs. */
  #schedule(deliveryId: string, delayMs: number, followUp = false): void {
    if (!this.#running || (!followUp && this.#inFlight.has(deliveryId))) return;
    const earlier = this.#timers.get(deliveryId);
    if (earlier) {
      earlier.cancel();
      this.#release();
    }
    this.#busy++;
    const timer = { cancel: () => {} };
    this.#timers.set(deliveryId, timer);
    timer.cancel = this.#options.scheduler.schedule(delayMs, () => {
      if (this.#timers.get(deliveryId) !== timer) return;
      this.#timers.delete(deliveryId);
      const attempt = this.#attempt(deliveryId)
        .catch((error) => this.#options.logger.error(`webhook delivery ${deliveryId} failed`, error))
        .finally(() => this.#inFlight.delete(deliveryId));
      this.#inFlight.set(deliveryId, attempt);
      this.#track(attempt);
      this.#release();
    });
  }

  async #attempt(deliveryId: string): Promise<void> {
    const { store, clock } = this.#options;
    const delivery = await store.getWebhookDelivery(deliveryId);
    if (!this.#running || !delivery || delivery.state !== "pending") return;
    const endpoint = await store.getWebhookEndpoint(delivery.endpointId);
    if (!endpoint) {
      await this.#update(deliveryId, (current) => ({ ...current, ...dead("endpoint_deleted") }));
      return;
    }
    const body = Buffer.from(delivery.body, "utf8");
    const retryCount = delivery.nextRetryCount;
    const startedAt = clock.now();
    const started = performance.now();
    const attemptStop = new AbortController();
    this.#attemptStops.add(attemptStop);
    // Stopped while this attempt read the store: it starts aborted and ends as stopped.
    if (!this.#running) attemptStop.abort();
    const result = await postWebhook({
      url: endpoint.url,
      body,
      headers: {
        ...signedDeliveryHeaders({
          secret: endpoint.secret,
          body,
          deliveryId: delivery.id,
          retryCount,
          test: delivery.test,
        }),
        "user-agent": "payreq-reference-server",
      },
      timeoutMs: this.#options.timeoutMs,
      blockPrivateTargets: !this.#options.allowList.allows(endpoint.url),
      stopSignal: attemptStop.signal,
    }).finally(() => this.#attemptStops.delete(attemptStop));
    // Stopped mid-attempt: the delivery stays pending with this retry count, to be sent again.
    if (result.stopped) return;
    const { succeeded, error } = judge(result);
    const attempt: WebhookAttemptRecord = {
      retryCount,
      trigger: retryCount > 0 ? "retry" : delivery.round === 1 ? "initial" : "redelivery",
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      statusCode: result.statusCode,
      error,
      responseExcerpt: result.responseExcerpt,
      succeeded,
    };
    let retryInMs: number | undefined;
    await this.#update(deliveryId, (current) => {
      const attempts = [...current.attempts, attempt];
      // Deleted meanwhile: the attempt happened and is recorded, but decides nothing any more.
      if (current.state !== "pending") return { ...current, attempts };
      if (succeeded) return { ...current, attempts, state: "delivered", nextAttemptAt: null };
      retryInMs = this.#options.retryDelaysMs[retryCount];
      if (retryInMs === undefined) return { ...current, attempts, ...dead("attempts_exhausted") };
      return {
        ...current,
        attempts,
        nextRetryCount: retryCount + 1,
        nextAttemptAt: new Date(clock.now().getTime() + retryInMs).toISOString(),
      };
    });
    if (retryInMs !== undefined) this.#schedule(deliveryId, retryInMs, true);
  }

  async #update(
    deliveryId: string,
    change: (current: WebhookDeliveryRecord) => WebhookDeliveryRecord,
  ): Promise<void> {
    const now = this.#options.clock.now().toISOString();
    await this.#options.store.withTransaction(async (tx) => {
      const current = await tx.getWebhookDelivery(deliveryId);
      if (current) await tx.putWebhookDelivery({ ...change(current), updatedAt: now });
    });
  }
}

function dead(reason: NonNullable<WebhookDeliveryRecord["deadReason"]>) {
  return { state: "dead" as const, nextAttemptAt: null, deadReason: reason };
}
