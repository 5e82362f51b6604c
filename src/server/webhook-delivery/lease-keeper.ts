import type { Clock } from "../clock.ts";
import type { WebhookDeliveryRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";

/** Whether `delivery` is still leased under `token`: its lease is the one that claim gave. */
export const holdsLease = (delivery: WebhookDeliveryRecord, token: string | undefined): boolean =>
  token !== undefined && delivery.lease?.token === token;

export interface KeptLease {
  /** The token of the claim the lease came from: every change of the delivery is fenced by it. */
  readonly token: string | undefined;
  /** Aborted once a renewal finds the lease gone (ended, and taken over by another claim). */
  readonly lost: AbortSignal;
  /** Stops renewing; resolves once a renewal under way has ended. */
  stop(): Promise<void>;
}

export interface KeepLeaseOptions {
  store: Store;
  /** Real time: leases end in it. */
  clock: Clock;
  /** How long each renewal makes the lease last from the time it is made. */
  leaseMs: number;
  /** How often to renew: a fraction of `leaseMs`, so that a late renewal still comes in time. */
  renewEveryMs: number;
  onError: (error: unknown) => void;
}

/**
 * Renews the lease of a claimed delivery every `renewEveryMs` until stopped, so that it outlives
 * the attempt and the recording of its result however long they take, while the worker lives.
 * Each renewal is fenced by the claim's token: once another claim has taken the delivery over,
 * the lease is lost, and the worker must send and record nothing more of this attempt.
 */
export function keepLease(delivery: WebhookDeliveryRecord, options: KeepLeaseOptions): KeptLease {
  const token = delivery.lease?.token;
  const lost = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> = Promise.resolve();

  const renew = async () => {
    const until = new Date(options.clock.now().getTime() + options.leaseMs).toISOString();
    const renewed = await options.store.updateWebhookDelivery(delivery.id, (current) =>
      holdsLease(current, token) && current.lease
        ? { ...current, lease: { ...current.lease, until } }
        : undefined,
    );
    if (!renewed) lost.abort();
  };
  const plan = () => {
    timer = setTimeout(() => {
      renewing = renew()
        .catch(options.onError)
        .finally(() => {
          if (!stopped && !lost.signal.aborted) plan();
        });
    }, options.renewEveryMs);
  };
  if (token === undefined) lost.abort();
  else plan();

  return {
    token,
    lost: lost.signal,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await renewing;
    },
  };
}
