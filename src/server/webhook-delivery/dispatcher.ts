import { randomUUID } from "node:crypto";
import { isWebhookEventName } from "../../wire/webhook-event.ts";
import { type Clock, systemClock } from "../clock.ts";
import type { ServerLogger } from "../server-logger.ts";
import type { DomainEvent, WebhookDeliveryRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { attemptDelivery, type DeliveryAttemptOptions, giveBackLease } from "./attempt-delivery.ts";
import { type AttemptLimits, AttemptSlots, type WaitingDelivery } from "./attempt-slots.ts";
import { fanOutWebhookEvents } from "./fan-out.ts";
import type { WebhookScheduler } from "./scheduler.ts";
import type { WebhookTargetAllowList } from "./target-allow-list.ts";

export interface WebhookDispatcherOptions {
  store: Store;
  /** What the accounts' sandbox clocks run on: a delivery's timestamps are its account's time. */
  baseClock: Clock;
  /** Real time, for due times and leases, which no sandbox clock may move (the system clock by default). */
  systemClock?: Clock;
  /** The waits before the retries; their number is the number of retries (at most 3). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** The most attempts under way at once, in all and to any one endpoint; the others wait their turn. */
  limits: AttemptLimits;
  /** Targets let through the address guard; every other one must reach a public address. */
  allowList: WebhookTargetAllowList;
  scheduler: WebhookScheduler;
  logger: ServerLogger;
  /** How often to look for work other processes left in a shared store; never when absent. */
  pollIntervalMs?: number;
  /** How many of the newest events the outbox keeps once they are fanned out. */
  eventRetention: number;
  /** How many of its newest deliveries each account keeps; older delivered or dead ones go. */
  deliveryRetention: number;
}

/** The most events one fan-out reads, and the most due deliveries one poll claims. */
const fanOutBatch = 500;
const pollBatch = 20;

/**
 * The webhook worker. It fans the outbox's webhook events out into deliveries (one per event and
 * endpoint), sends each with its signature, and retries failed attempts on the configured schedule
 * until one succeeds or the last fails (the delivery is then dead). Every attempt is recorded.
 *
 * Before an attempt the worker leases the delivery in the store, so that of several workers on
 * one store only one sends it. The lease outlives the longest attempt, and the worker renews it
 * while the attempt and the recording of its result go on, however long they take; a delivery
 * whose worker died is taken over once its lease ends. Each claim gives the lease a token, and
 * the worker changes the delivery only while the lease still carries it: a worker whose lease
 * ended and was taken over sends and records nothing more. Due times are real time in the store:
 * a restarted or another worker keeps the retry schedule.
 *
 * At most `limits.total` attempts are under way at once, and `limits.perEndpoint` to one endpoint;
 * the deliveries beyond wait in this worker, unleased and without a connection, for their turn.
 *
 * A commit holding a webhook event starts a fan-out. The other events (a request created, a
 * link created) concern no webhook: the worker passes over them in the next fan-out, or once a
 * batch of them waits, so that a burst of such commits costs no fan-out each.
 */
export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  readonly #attemptOptions: DeliveryAttemptOptions;
  /** Names this worker in leases. */
  readonly #owner = `worker_${randomUUID()}`;
  readonly #system: Clock;
  #running = false;
  /**
   * One controller per attempt under way, which stop() aborts. Each attempt listens to its own
   * signal only: attempts sharing one signal would add a listener each to it, and more than ten
   * in flight would trip Node's MaxListenersExceededWarning.
   */
  readonly #attemptStops = new Set<AbortController>();
  #unsubscribe: (() => void) | undefined;
  readonly #timers = new Map<string, { cancel: () => void }>();
  /** The room for attempts, and the due deliveries waiting for it. */
  readonly #slots: AttemptSlots;
  readonly #inFlight = new Map<string, Promise<void>>();
  /**
   * Deliveries a poll claimed while this worker's own claim of them was under way. The poll's
   * claim can commit first, and the other claim then finds the delivery leased (to this worker):
   * it attempts the poll's claim instead of leaving the delivery to wait out the lease.
   */
  readonly #claimedByPoll = new Map<string, WebhookDeliveryRecord>();
  #fanOut: Promise<void> = Promise.resolve();
  /** A fan-out is queued and has not started: it will read every event committed until it starts. */
  #fanOutWaiting = false;
  #pollTimer: NodeJS.Timeout | undefined;
  /** Events committed since the last fan-out was requested that no webhook needs. */
  #passedOver = 0;
  #busy = 0;
  #idleWaiters: (() => void)[] = [];

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#system = options.systemClock ?? systemClock;
    this.#slots = new AttemptSlots(options.limits);
    this.#attemptOptions = { ...options, systemClock: this.#system, leaseMs: this.#leaseMs };
  }

  /**
   * How long a claim or a renewal holds a delivery: the attempt's timeout twice over, and a
   * second to record it. It is also how long a delivery whose worker died waits to be taken over.
   */
  get #leaseMs(): number {
    return this.#options.timeoutMs * 2 + 1000;
  }

  /** Starts delivering: what the outbox holds past the cursor, pending deliveries, then new events. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = this.#options.store.onEventsCommitted((events) => this.#eventsCommitted(events));
    this.#requestFanOut();
    this.#track(
      this.#resumePending().catch((error) =>
        this.#options.logger.error("resuming pending webhook deliveries failed", error),
      ),
    );
    this.#planPoll();
  }

  /**
   * Stops: cancels waiting retries and the deliveries waiting for room, aborts attempts in flight
   * (all are left pending), and waits for them.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearTimeout(this.#pollTimer);
    for (const timer of this.#timers.values()) {
      timer.cancel();
      this.#release();
    }
    this.#timers.clear();
    for (let waiting = this.#slots.clear(); waiting > 0; waiting--) this.#release();
    for (const attemptStop of this.#attemptStops) attemptStop.abort();
    await Promise.allSettled([...this.#inFlight.values(), this.#fanOut]);
  }

  /** Sends a pending delivery now (a test event or a redelivery); a stopped worker sends it once started. */
  enqueue(deliveryId: string): void {
    this.#schedule({ deliveryId, endpointId: undefined }, 0);
  }

  /** Resolves once no delivery is waiting or in flight in this worker: every one is delivered or dead. */
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

  #eventsCommitted(events: DomainEvent[]): void {
    this.#passedOver += events.length;
    if (this.#passedOver >= fanOutBatch || events.some((event) => isWebhookEventName(event.type))) {
      this.#requestFanOut();
    }
  }

  #requestFanOut(): void {
    this.#passedOver = 0;
    // A burst of commits shares the fan-out that waits, instead of queueing one each that would find nothing.
    if (!this.#running || this.#fanOutWaiting) return;
    this.#fanOutWaiting = true;
    const run = this.#fanOut.then(async () => {
      this.#fanOutWaiting = false;
      if (!this.#running) return;
      const { created, full } = await fanOutWebhookEvents(this.#options.store, {
        baseClock: this.#options.baseClock,
        batchSize: fanOutBatch,
        eventRetention: this.#options.eventRetention,
      });
      for (const { id, endpointId } of created) this.#schedule({ deliveryId: id, endpointId }, 0);
      if (full) this.#requestFanOut();
    });
    this.#fanOut = run.catch((error) => this.#options.logger.error("webhook fan-out failed", error));
    this.#track(this.#fanOut);
  }

  /** Plans an attempt of every pending delivery at its due time (at most one retry wait away). */
  async #resumePending(): Promise<void> {
    const longest = Math.max(0, ...this.#options.retryDelaysMs);
    let after: number | undefined;
    do {
      const page = await this.#options.store.webhookDeliveries.find(
        "pending",
        {},
        after === undefined ? { limit: pollBatch } : { limit: pollBatch, after },
      );
      const now = this.#system.now().getTime();
      for (const delivery of page.items) {
        const dueMs = delivery.dueAt === null ? now : Date.parse(delivery.dueAt);
        const delayMs = Math.min(Math.max(dueMs - now, 0), longest);
        this.#schedule({ deliveryId: delivery.id, endpointId: delivery.endpointId, dueMs }, delayMs);
      }
      after = page.next ?? undefined;
    } while (after !== undefined && this.#running);
  }

  /** In a shared store, looks now and then for due deliveries and events no live worker took. */
  #planPoll(): void {
    const { pollIntervalMs } = this.#options;
    if (pollIntervalMs === undefined || !this.#running) return;
    this.#pollTimer = setTimeout(() => {
      const poll = this.#poll()
        .catch((error) => this.#options.logger.error("polling for webhook deliveries failed", error))
        .finally(() => this.#planPoll());
      this.#track(poll);
    }, pollIntervalMs);
  }

  /**
   * Claims as many due deliveries as there is room for, leaving out the endpoints without room and
   * the deliveries this worker attempts already: its own lease that ran out stays its own.
   */
  async #poll(): Promise<void> {
    this.#requestFanOut();
    if (this.#slots.room <= 0) return;
    const now = this.#system.now();
    const claimed = await this.#options.store.claimWebhookDeliveries({
      owner: this.#owner,
      now,
      leaseUntil: new Date(now.getTime() + this.#leaseMs),
      limit: Math.min(pollBatch, this.#slots.room),
      skipEndpoints: this.#slots.fullEndpoints(),
      skipDeliveries: [...this.#inFlight.keys()],
    });
    for (const delivery of claimed) {
      const { id, endpointId } = delivery;
      if (this.#inFlight.has(id)) {
        this.#claimedByPoll.set(id, delivery);
        continue;
      }
      const waited = this.#slots.drop(id);
      if (this.#slots.hasRoom(endpointId)) {
        this.#slots.take(endpointId);
        this.#start(id, { endpointId }, () => this.#attempt(delivery));
      } else {
        // More of the batch go to one endpoint than it has room for: they wait here, unleased.
        const waitHere = giveBackLease(this.#options.store, delivery)
          .then(() => this.#wait({ deliveryId: id, endpointId }))
          .catch((error) => this.#options.logger.error(`webhook delivery ${id} failed`, error));
        this.#track(waitHere);
      }
      if (waited) this.#release();
    }
  }

  /**
   * Plans the next attempt; only the attempt under way (`followUp`) may plan one while it runs.
   * `dueMs` is the due time the attempt was planned for: a plan another worker overtook finds
   * the delivery not yet due again, and drops. Once due, the delivery waits for room.
   */
  #schedule(planned: WaitingDelivery, delayMs: number, followUp = false): void {
    const { deliveryId } = planned;
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
      // A poll's claim got there first: the attempt under way holds the delivery and plans what follows.
      if (!this.#inFlight.has(deliveryId)) this.#wait(planned);
      this.#release();
    });
  }

  /** Lets a due delivery wait for room to be attempted, and starts what has room. */
  #wait(planned: WaitingDelivery): void {
    if (!this.#running) return;
    if (this.#slots.wait(planned)) this.#busy++;
    this.#startWaiting();
  }

  /** Starts the waiting deliveries there is room for now. */
  #startWaiting(): void {
    if (!this.#running) return;
    for (const planned of this.#slots.startable()) {
      const { deliveryId, endpointId } = planned;
      // Attempted meanwhile (a poll's claim): that attempt plans what follows.
      if (this.#inFlight.has(deliveryId)) this.#slots.give(endpointId);
      else this.#start(deliveryId, { endpointId }, (room) => this.#claimAndAttempt(planned, room));
      this.#release();
    }
  }

  /**
   * Runs the work of one delivery in the room taken for it (counted against `room.endpointId`,
   * once known); when it ends, frees the room and starts what waits for it.
   */
  #start(deliveryId: string, room: AttemptRoom, work: (room: AttemptRoom) => Promise<void>): void {
    const attempt = work(room)
      .catch((error) => this.#options.logger.error(`webhook delivery ${deliveryId} failed`, error))
      .finally(() => {
        this.#inFlight.delete(deliveryId);
        this.#claimedByPoll.delete(deliveryId);
        this.#slots.give(room.endpointId);
        if (room.waitAgain) this.#wait(room.waitAgain);
        this.#startWaiting();
      });
    this.#inFlight.set(deliveryId, attempt);
    this.#track(attempt);
  }

  async #claimAndAttempt(planned: WaitingDelivery, room: AttemptRoom): Promise<void> {
    if (!this.#running) return;
    const { deliveryId } = planned;
    const now = Math.max(this.#system.now().getTime(), planned.dueMs ?? 0);
    const [claimed] = await this.#options.store.claimWebhookDeliveries({
      owner: this.#owner,
      now: new Date(now),
      leaseUntil: new Date(now + this.#leaseMs),
      limit: 1,
      id: deliveryId,
    });
    const delivery = claimed ?? this.#claimedByPoll.get(deliveryId);
    this.#claimedByPoll.delete(deliveryId);
    if (!delivery) return;
    if (room.endpointId === undefined) {
      // Enqueued by its id alone: its endpoint is known now, and may have no room left.
      if (!this.#slots.takeEndpoint(delivery.endpointId)) {
        await giveBackLease(this.#options.store, delivery);
        room.waitAgain = { deliveryId, endpointId: delivery.endpointId };
        return;
      }
      room.endpointId = delivery.endpointId;
    }
    await this.#attempt(delivery);
  }

  /** One attempt of a delivery this worker holds the lease of; plans the retry a failure calls for. */
  async #attempt(delivery: WebhookDeliveryRecord): Promise<void> {
    const stop = new AbortController();
    this.#attemptStops.add(stop);
    // Stopped while this attempt was claimed: it starts aborted and gives the lease back.
    if (!this.#running) stop.abort();
    try {
      const retry = await attemptDelivery(delivery, this.#attemptOptions, stop.signal);
      if (retry) {
        const { id: deliveryId, endpointId } = delivery;
        this.#schedule({ deliveryId, endpointId, dueMs: retry.dueMs }, retry.inMs, true);
      }
    } finally {
      this.#attemptStops.delete(stop);
    }
  }
}

/** The room one delivery's work holds: always one of the total, and one of its endpoint's once known. */
interface AttemptRoom {
  endpointId: string | undefined;
  /** The delivery goes back to wait when the work ends (its endpoint had no room after all). */
  waitAgain?: WaitingDelivery;
}
