import { InvalidValueError } from "../wire/payreq-error.ts";

/**
 * The answer of `DeliveryStore.claim`: `claimed` (the caller processes the delivery), `processed`
 * (done before: answer 200 without processing) or `in_progress` (another attempt is processing it).
 */
export type DeliveryClaim = "claimed" | "processed" | "in_progress";

/**
 * Remembers which deliveries were processed, keyed by `x-request-network-delivery`. A shared store
 * (Redis, a database) lets several receiver instances dedupe together: `claim` must be atomic
 * (for example `SET key value NX PX ttl`), and a claim should expire so that a crashed process
 * cannot block a delivery forever.
 */
export interface DeliveryStore {
  /** Atomically claims the delivery for processing unless it is processed or claimed already. */
  claim(deliveryId: string): DeliveryClaim | Promise<DeliveryClaim>;
  /** Records a claimed delivery as processed; later claims answer `processed`. */
  markProcessed(deliveryId: string): void | Promise<void>;
  /** Drops a claim after a failed attempt so that the retry processes the delivery. */
  release(deliveryId: string): void | Promise<void>;
}

export interface MemoryDeliveryStoreOptions {
  /** Processed deliveries kept at most; the oldest are forgotten first. Default 10 000. */
  maxEntries?: number;
  /** How long a processed delivery is remembered, in milliseconds. Default 24 hours. */
  ttlMs?: number;
  /** The clock, in milliseconds; `Date.now` unless given (tests pass their own). */
  now?: () => number;
}

export interface MemoryDeliveryStore extends DeliveryStore {
  /** Processed deliveries currently remembered (expired ones may count until the next claim). */
  readonly size: number;
}

const defaultMaxEntries = 10_000;
const defaultTtlMs = 24 * 60 * 60 * 1000;

/**
 * An in-process `DeliveryStore`, bounded in size and time. The service retries within about a
 * minute, so a day of memory covers every retry; use a shared store when several processes
 * receive the same endpoint's deliveries.
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): MemoryDeliveryStore {
  const maxEntries = positiveInteger("maxEntries", options.maxEntries ?? defaultMaxEntries);
  const ttlMs = positiveInteger("ttlMs", options.ttlMs ?? defaultTtlMs);
  const now = options.now ?? Date.now;
  // Insertion order is expiry order (constant TTL), so pruning stops at the first live entry.
  const processed = new Map<string, number>();
  const inProgress = new Set<string>();

  const prune = (at: number) => {
    for (const [id, expiresAt] of processed) {
      if (expiresAt > at && processed.size <= maxEntries) break;
      processed.delete(id);
    }
  };

  return {
    get size() {
      return processed.size;
    },
    claim(deliveryId) {
      prune(now());
      if (processed.has(deliveryId)) return "processed";
      if (inProgress.has(deliveryId)) return "in_progress";
      inProgress.add(deliveryId);
      return "claimed";
    },
    markProcessed(deliveryId) {
      inProgress.delete(deliveryId);
      processed.delete(deliveryId);
      const at = now();
      processed.set(deliveryId, at + ttlMs);
      prune(at);
    },
    release(deliveryId) {
      inProgress.delete(deliveryId);
    },
  };
}

function positiveInteger(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new InvalidValueError(field, "a positive integer", value);
  return value;
}
