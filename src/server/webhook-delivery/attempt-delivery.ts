import { performance } from "node:perf_hooks";
import { signedDeliveryHeaders } from "../../webhooks/sign.ts";
import { loadAccountClock } from "../account-clock.ts";
import type { Clock } from "../clock.ts";
import type { ServerLogger } from "../server-logger.ts";
import type { WebhookAttemptRecord, WebhookDeliveryRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { holdsLease, keepLease } from "./lease-keeper.ts";
import { postWebhook, type WebhookPostResult } from "./post-webhook.ts";
import type { WebhookTargetAllowList } from "./target-allow-list.ts";

export interface DeliveryAttemptOptions {
  store: Store;
  /** What the accounts' sandbox clocks run on: an attempt's times are its account's time. */
  baseClock: Clock;
  /** Real time, for due times and leases. */
  systemClock: Clock;
  /** The waits before the retries; their number is the number of retries. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** How long a claim or a renewal holds a delivery. */
  leaseMs: number;
  allowList: WebhookTargetAllowList;
  logger: ServerLogger;
  /** How many of its newest deliveries each account keeps; older delivered or dead ones go. */
  deliveryRetention: number;
}

/** When the next attempt of a delivery is due: in `inMs`, at `dueMs` in system time. */
export interface RetryPlan {
  inMs: number;
  dueMs: number;
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

function dead(reason: NonNullable<WebhookDeliveryRecord["deadReason"]>) {
  return { state: "dead" as const, nextAttemptAt: null, dueAt: null, deadReason: reason };
}

/**
 * One attempt of a delivery a claim just leased: sends it signed, and records the attempt and
 * what follows (delivered, a retry, or dead), giving the lease up. The lease is renewed until
 * then, however long the attempt and the recording take. Every change is fenced by the lease's
 * token: once another claim has taken the delivery over, the attempt sends and records nothing
 * more. `stop` aborts it (the worker stops): it then records nothing and gives the lease back.
 * Answers when the next attempt is due, if one is.
 */
export async function attemptDelivery(
  delivery: WebhookDeliveryRecord,
  options: DeliveryAttemptOptions,
  stop: AbortSignal,
): Promise<RetryPlan | undefined> {
  const lease = keepLease(delivery, {
    store: options.store,
    clock: options.systemClock,
    leaseMs: options.leaseMs,
    // A renewal that comes late, even by most of a lease, still comes in time.
    renewEveryMs: options.leaseMs / 4,
    onError: (error) =>
      options.logger.error(`renewing the lease of webhook delivery ${delivery.id} failed`, error),
  });
  try {
    return await attemptLeased(delivery, options, stop, lease.lost);
  } finally {
    await lease.stop();
  }
}

async function attemptLeased(
  delivery: WebhookDeliveryRecord,
  options: DeliveryAttemptOptions,
  stop: AbortSignal,
  lost: AbortSignal,
): Promise<RetryPlan | undefined> {
  const { store } = options;
  if (stop.aborted) return giveBackLease(store, delivery);
  const clock = await loadAccountClock(store, options.baseClock, delivery.accountId);
  const endpoint = await store.webhookEndpoints.get(delivery.endpointId);
  if (!endpoint) {
    await recordAttempt(delivery, options, clock.now(), (current) => ({
      ...current,
      ...dead("endpoint_deleted"),
    }));
    return undefined;
  }
  // Lost while this attempt read the store: another worker holds the delivery now.
  if (lost.aborted) return undefined;
  const body = Buffer.from(delivery.body, "utf8");
  const retryCount = delivery.nextRetryCount;
  const startedAt = clock.now();
  const started = performance.now();
  // Stopped, or lost, while the request is under way: it is aborted and its connection dropped.
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  for (const signal of [stop, lost]) {
    if (signal.aborted) abort.abort();
    else signal.addEventListener("abort", onAbort, { once: true });
  }
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
    timeoutMs: options.timeoutMs,
    blockPrivateTargets: !options.allowList.allows(endpoint.url),
    stopSignal: abort.signal,
  }).finally(() => {
    for (const signal of [stop, lost]) signal.removeEventListener("abort", onAbort);
  });
  if (lost.aborted) return reportLost(delivery, options);
  // Stopped mid-attempt: the delivery stays pending with this retry count, free for the next worker.
  if (result.stopped) return giveBackLease(store, delivery);
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
  let retry: RetryPlan | undefined;
  const recorded = await recordAttempt(delivery, options, clock.now(), (current) => {
    retry = undefined;
    const attempts = [...current.attempts, attempt];
    // Deleted meanwhile: the attempt happened and is recorded, but decides nothing any more.
    if (current.state !== "pending") return { ...current, attempts };
    if (succeeded) return { ...current, attempts, state: "delivered", nextAttemptAt: null, dueAt: null };
    const inMs = options.retryDelaysMs[retryCount];
    if (inMs === undefined) return { ...current, attempts, ...dead("attempts_exhausted") };
    retry = { inMs, dueMs: options.systemClock.now().getTime() + inMs };
    return {
      ...current,
      attempts,
      nextRetryCount: retryCount + 1,
      nextAttemptAt: new Date(clock.now().getTime() + inMs).toISOString(),
      dueAt: new Date(retry.dueMs).toISOString(),
    };
  });
  return recorded ? retry : reportLost(delivery, options);
}

/**
 * Changes a delivery leased to this claim as `change` says, at `at` (the account's time), and
 * gives the lease up, in one atomic change fenced by the lease's token: when the lease ended and
 * another claim took the delivery over, nothing changes and the answer is false. A finished
 * delivery lets its account's log be trimmed to the retention.
 */
async function recordAttempt(
  delivery: WebhookDeliveryRecord,
  { store, deliveryRetention }: DeliveryAttemptOptions,
  at: Date,
  change: (current: WebhookDeliveryRecord) => WebhookDeliveryRecord,
): Promise<boolean> {
  const token = delivery.lease?.token;
  const updatedAt = at.toISOString();
  const updated = await store.updateWebhookDelivery(delivery.id, (current) =>
    holdsLease(current, token) ? { ...change(current), lease: null, updatedAt } : undefined,
  );
  if (!updated) return false;
  if (updated.state !== "pending") await store.trimWebhookDeliveries(updated.accountId, deliveryRetention);
  return true;
}

/** Gives a claimed delivery's lease up unchanged, if it is still this claim's: it is due again at once. */
export async function giveBackLease(store: Store, delivery: WebhookDeliveryRecord): Promise<undefined> {
  const token = delivery.lease?.token;
  await store.updateWebhookDelivery(delivery.id, (current) =>
    holdsLease(current, token) ? { ...current, lease: null } : undefined,
  );
  return undefined;
}

/** An attempt whose lease another claim took over while it ran: that claim attempts the delivery again. */
function reportLost(delivery: WebhookDeliveryRecord, { logger }: DeliveryAttemptOptions): undefined {
  logger.error(
    `webhook delivery ${delivery.id}: its lease ended and another worker took the delivery over during an attempt; this attempt's result is not recorded, and the delivery is attempted again`,
  );
  return undefined;
}
