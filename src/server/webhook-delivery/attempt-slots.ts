/** A delivery that is due and waits for room to be attempted. */
export interface WaitingDelivery {
  deliveryId: string;
  /** Its endpoint; unknown for a delivery enqueued by its id alone, until its claim reads it. */
  endpointId: string | undefined;
  /** The due time it was planned for, in system time: its claim looks at that time at least. */
  dueMs?: number;
}

export interface AttemptLimits {
  /** The most attempts under way at once. */
  total: number;
  /** The most attempts under way at once to any one endpoint. */
  perEndpoint: number;
}

/** The line of the deliveries whose endpoint is not known yet: only the total bound applies to them. */
const unknownEndpoint = "";

/**
 * The room a worker has for attempts: at most `total` under way at once, and `perEndpoint` to
 * any one endpoint. The deliveries beyond them wait here, in one line per endpoint, holding no
 * lease and no connection; as room frees, the lines take turns, so that an endpoint with
 * thousands waiting does not hold up the others.
 */
export class AttemptSlots {
  readonly #limits: AttemptLimits;
  #running = 0;
  readonly #runningTo = new Map<string, number>();
  /** The waiting deliveries by endpoint, each line oldest first; the next line to serve first. */
  readonly #lines = new Map<string, Map<string, WaitingDelivery>>();
  readonly #lineOf = new Map<string, string>();

  constructor(limits: AttemptLimits) {
    this.#limits = limits;
  }

  /** How many more attempts may start now, to endpoints with room. */
  get room(): number {
    return this.#limits.total - this.#running;
  }

  /** The endpoints that have as many attempts under way as they may. */
  fullEndpoints(): string[] {
    return [...this.#runningTo]
      .filter(([, running]) => running >= this.#limits.perEndpoint)
      .map(([id]) => id);
  }

  /** Whether an attempt to `endpointId` (unknown: to any) may start now. */
  hasRoom(endpointId: string | undefined): boolean {
    return this.#running < this.#limits.total && this.#endpointHasRoom(endpointId ?? unknownEndpoint);
  }

  /** Counts an attempt that starts now; its endpoint once known (`takeEndpoint` then). */
  take(endpointId: string | undefined): void {
    this.#running++;
    if (endpointId !== undefined) this.#runningTo.set(endpointId, (this.#runningTo.get(endpointId) ?? 0) + 1);
  }

  /** Counts a started attempt against the endpoint its claim found, if that endpoint has room. */
  takeEndpoint(endpointId: string): boolean {
    if (!this.#endpointHasRoom(endpointId)) return false;
    this.#runningTo.set(endpointId, (this.#runningTo.get(endpointId) ?? 0) + 1);
    return true;
  }

  /** Frees the room of an attempt that ended, counted with this endpoint (undefined: none). */
  give(endpointId: string | undefined): void {
    this.#running--;
    if (endpointId === undefined) return;
    const running = (this.#runningTo.get(endpointId) ?? 1) - 1;
    if (running > 0) this.#runningTo.set(endpointId, running);
    else this.#runningTo.delete(endpointId);
  }

  /** Puts a delivery in its endpoint's line; false when it waits already. */
  wait(waiting: WaitingDelivery): boolean {
    if (this.#lineOf.has(waiting.deliveryId)) return false;
    const key = waiting.endpointId ?? unknownEndpoint;
    const line = this.#lines.get(key) ?? new Map<string, WaitingDelivery>();
    line.set(waiting.deliveryId, waiting);
    this.#lines.set(key, line);
    this.#lineOf.set(waiting.deliveryId, key);
    return true;
  }

  /** Takes a delivery out of its line; false when it was not waiting. */
  drop(deliveryId: string): boolean {
    const key = this.#lineOf.get(deliveryId);
    if (key === undefined) return false;
    this.#lineOf.delete(deliveryId);
    const line = this.#lines.get(key);
    line?.delete(deliveryId);
    if (line?.size === 0) this.#lines.delete(key);
    return true;
  }

  /** Takes every waiting delivery out of its line, and answers how many waited. */
  clear(): number {
    const count = this.#lineOf.size;
    this.#lines.clear();
    this.#lineOf.clear();
    return count;
  }

  /**
   * Takes out of their lines the waiting deliveries that may start now, each counted as under
   * way, and answers them: one from each line with room in turn, until the total is reached.
   */
  startable(): WaitingDelivery[] {
    const started: WaitingDelivery[] = [];
    // A line served moves to the back: the loop comes to it again after the others.
    for (const [key, line] of this.#lines) {
      if (this.#running >= this.#limits.total) break;
      if (!this.#endpointHasRoom(key)) continue;
      const [next] = line.values();
      if (!next) continue;
      this.drop(next.deliveryId);
      if (line.size > 0) {
        this.#lines.delete(key);
        this.#lines.set(key, line);
      }
      this.take(next.endpointId);
      started.push(next);
    }
    return started;
  }

  #endpointHasRoom(key: string): boolean {
    return key === unknownEndpoint || (this.#runningTo.get(key) ?? 0) < this.#limits.perEndpoint;
  }
}
