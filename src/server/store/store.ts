import type { DomainEvent, WebhookDeliveryClaim, WebhookDeliveryRecord } from "./records.ts";
import type { RecordTables } from "./tables.ts";

/**
 * What each store writes its own way, beside its tables: the outbox (events and the cursors of
 * their consumers) and trimming the delivery log.
 */
export interface StoreOwnOperations {
  /**
   * Appends to the outbox. The event gets its sequence when the surrounding transaction commits,
   * in commit order, so a reader never sees a later sequence before an earlier one; listeners
   * hear of it then. The transaction itself does not read it back.
   */
  appendEvent(event: Omit<DomainEvent, "sequence">): Promise<void>;
  /** Committed events after `afterSequence`, oldest first: at most `limit` of them when given. */
  listEvents(afterSequence?: number, limit?: number): Promise<DomainEvent[]>;
  /** The last outbox sequence a consumer (such as `webhooks`) has handled; 0 when none. */
  getOutboxCursor(consumer: string): Promise<number>;
  setOutboxCursor(consumer: string, sequence: number): Promise<void>;
  /**
   * Drops the oldest events beyond the newest `keepLatest`, never one that a consumer with a
   * cursor has yet to handle. Returns how many it dropped.
   */
  trimEvents(keepLatest: number): Promise<number>;

  /**
   * Drops an account's oldest delivered or dead deliveries beyond its newest `keepLatest`
   * deliveries; pending ones stay. Returns how many it dropped.
   */
  trimWebhookDeliveries(accountId: string, keepLatest: number): Promise<number>;
}

/**
 * The operations the server needs from its storage: a table of each declared record type
 * (tables.ts), such as `tx.requests.get(id)`, and the outbox. Every method is async and returns
 * copies, so that a SQL implementation can stand behind the same interface; records are values,
 * never live references into the store. Lists come in insertion order; no method reads more
 * records than it answers (plus those its filter skips), whatever the store holds.
 */
export interface StoreOperations extends RecordTables, StoreOwnOperations {}

export interface Store extends StoreOperations {
  /**
   * Whether other processes share it (a database): the webhook worker then polls it for the
   * work they leave, such as a delivery whose worker died mid-attempt.
   */
  readonly shared: boolean;
  /**
   * Leases the due deliveries of `claim` to its owner (oldest due first) and answers them with
   * their lease, each with a token of its own: two workers never hold one delivery at once. It
   * commits at once.
   */
  claimWebhookDeliveries(claim: WebhookDeliveryClaim): Promise<WebhookDeliveryRecord[]>;
  /**
   * Changes one delivery atomically: `change` gets it as stored now and answers its new state
   * (or undefined to leave it); a concurrent change of it waits or runs again. Answers the new
   * state, or undefined when there is no such delivery or nothing changed.
   */
  updateWebhookDelivery(
    id: string,
    change: (current: WebhookDeliveryRecord) => WebhookDeliveryRecord | undefined,
  ): Promise<WebhookDeliveryRecord | undefined>;
  /**
   * Hands the committed events past `consumer`'s cursor (at most `limit`, oldest first) to
   * `handle`, in one transaction that also moves the cursor past them. Runs for one consumer
   * never overlap, in this process or another, so each event is handled once. Answers what
   * `handle` answered and how many events it got (none: `handle` is not called).
   */
  consumeEvents<T>(
    consumer: string,
    limit: number,
    handle: (events: DomainEvent[], tx: StoreOperations) => Promise<T>,
  ): Promise<{ handled: number; result: T | undefined }>;

  /**
   * Runs `work` atomically: either every change it makes is kept, or, when it throws, none is.
   * Transactions behave as if they ran one at a time: inside `work`, use `tx` only, never the
   * store itself. A store may run `work` again after a conflict with a concurrent transaction,
   * so `work` must have no effect outside `tx`.
   */
  withTransaction<T>(work: (tx: StoreOperations) => Promise<T>): Promise<T>;
  /** Calls `listener` with the events of each committed transaction, in order. Returns an unsubscribe. */
  onEventsCommitted(listener: (events: DomainEvent[]) => void): () => void;
  /** Releases what the store holds (connections); the in-memory store has nothing to release. */
  close(): Promise<void>;
}
