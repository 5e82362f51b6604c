import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { StoreContentionError, StoreUnavailableError } from "../store-errors.ts";
import { backoffMs, classifyFailure, type TransientFailure } from "./transient-failures.ts";
import { type ReleaseTurn, TurnQueue } from "./turn-queue.ts";

/** How long the store waits for the database; see `databaseConnectTimeoutMs` and its siblings in the configuration. */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one of the pool. */
  connectTimeoutMs: number;
  /**
   * One statement (PostgreSQL's `statement_timeout`); a server that does not answer at all is given
   * up as long again later (a second at most), so that a server that runs answers first.
   */
  statementTimeoutMs: number;
  /** Waiting for a lock another transaction holds (`lock_timeout`), or for a contended transaction's turn. */
  lockTimeoutMs: number;
}

/** The pool's settings that carry the timeouts to every connection. */
export function poolTimeouts(timeouts: DatabaseTimeouts): pg.PoolConfig {
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    // A transaction left open (its instance paused or lost mid-transaction) gives its locks back.
    idle_in_transaction_session_timeout: 2 * timeouts.statementTimeoutMs,
    // statement_timeout needs a server that runs; this one gives up on a server that stopped answering.
    query_timeout: timeouts.statementTimeoutMs + Math.min(timeouts.statementTimeoutMs, 1000),
    keepAlive: true,
  };
}

/**
 * A contended transaction's turn across every instance on the database: held as a session lock
 * from before BEGIN, so that the transaction's snapshot is taken once it is its turn.
 */
const turnLock = 0x70617974;

/** Attempts of a transaction that conflicts, racing the others, with a random wait before the second. */
const attemptsBeforeTurn = 2;
/** Attempts in all of a transaction that keeps conflicting, the last ones in its turn. */
const maxContendedAttempts = 6;
/** Attempts of a statement or transaction while the database is unavailable, within connectTimeoutMs. */
const maxUnavailableAttempts = 3;

type Isolation = "SERIALIZABLE" | "READ COMMITTED";

type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; error: unknown; failure: TransientFailure | undefined; duringCommit: boolean };

/**
 * Runs transactions and single statements on the pool, again after a transient failure
 * (transient-failures.ts), within bounds:
 *
 * - A transaction that conflicts with concurrent ones runs again after a random wait; if it
 *   conflicts again, it waits for its turn (one contended transaction at a time in the process,
 *   and across instances by an advisory lock) and runs in it, so that contenders of one hot
 *   record take turns instead of failing each other. Past `maxContendedAttempts`, or when its
 *   turn does not come within `lockTimeoutMs`, it fails with StoreContentionError.
 * - While the database is unavailable, a call runs again after a random wait, as long as its
 *   time so far is within `connectTimeoutMs`, then fails with StoreUnavailableError. A
 *   connection that failed during COMMIT is not tried again: the commit may have happened.
 *
 * A client whose connection failed, or that timed out, is closed instead of going back to the
 * pool: the next call opens a new connection, so that the store recovers once the database does.
 */
export function createTransactionRunner(pool: pg.Pool, timeouts: DatabaseTimeouts) {
  const turns = new TurnQueue();

  async function attemptTransaction<T>(
    isolation: Isolation,
    work: (client: pg.PoolClient) => Promise<T>,
    inTurn: boolean,
  ): Promise<Attempt<T>> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return { ok: false, error, failure: classifyFailure(error) ?? "unavailable", duringCommit: false };
    }
    // A connection lost while the client is checked out is reported by the statement under way;
    // the client emits it too, and an emitter without a listener would throw it at the process.
    const ignore = () => {};
    client.on("error", ignore);
    let locked = false;
    let duringCommit = false;
    let value: T;
    const finish = (healthy: boolean) => {
      client.off("error", ignore);
      client.release(healthy ? undefined : new Error("connection closed after a failure"));
    };
    try {
      if (inTurn) {
        await client.query("SELECT pg_advisory_lock($1)", [turnLock]);
        locked = true;
      }
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      value = await work(client);
      duringCommit = true;
      await client.query("COMMIT");
    } catch (error) {
      const failure = classifyFailure(error);
      // A failed connection rolls the transaction back as it closes, and the turn's lock with it.
      let healthy = failure !== "unavailable";
      if (healthy) healthy = await client.query("ROLLBACK").then(succeeded, failed);
      if (healthy && locked) healthy = await unlock(client);
      finish(healthy);
      return { ok: false, error, failure, duringCommit };
    }
    // Committed: a failure to give the turn back closes the connection, which gives it back.
    finish(!locked || (await unlock(client)));
    return { ok: true, value };
  }

  /**
   * Runs `attempt` until it succeeds, or throws a StoreTransientError once out of attempts (or
   * the error of a failure that is not transient). Only a transaction takes turns.
   */
  async function withRetries<T>(
    attempt: (inTurn: boolean) => Promise<Attempt<T>>,
    takesTurns: boolean,
  ): Promise<T> {
    const started = performance.now();
    let turn: ReleaseTurn | undefined;
    try {
      for (let count = 1; ; count++) {
        const outcome = await attempt(turn !== undefined);
        if (outcome.ok) return outcome.value;
        const { error, failure } = outcome;
        if (failure === "unavailable") {
          if (outcome.duringCommit) {
            throw new StoreUnavailableError("the connection failed while the transaction was committing", {
              cause: error,
              outcomeUnknown: true,
            });
          }
          const wait = backoffMs(count, 100, 1000);
          if (
            count >= maxUnavailableAttempts ||
            performance.now() - started + wait > timeouts.connectTimeoutMs
          ) {
            throw new StoreUnavailableError(`the database is unavailable: ${(error as Error).message}`, {
              cause: error,
            });
          }
          await sleep(wait);
        } else if (failure === "contention") {
          if (count >= maxContendedAttempts) {
            throw new StoreContentionError(`still conflicting after ${count} attempts`, { cause: error });
          }
          if (!takesTurns || count < attemptsBeforeTurn) await sleep(backoffMs(count, 10, 100));
          else if (!turn) {
            turn = await turns.take(timeouts.lockTimeoutMs);
            if (!turn) {
              throw new StoreContentionError(
                `conflicting ${count} times, and no turn came within ${timeouts.lockTimeoutMs} ms`,
                { cause: error },
              );
            }
          }
        } else throw error;
      }
    } finally {
      turn?.();
    }
  }

  /** Runs `work` in one transaction, again after a transient failure. */
  const run = <T>(isolation: Isolation, work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    withRetries((inTurn) => attemptTransaction(isolation, work, inTurn), true);

  /**
   * One statement on its own (it commits at once), again after a transient failure: the store's
   * statements outside transactions read, or write what can be written twice (an upsert, a delete).
   */
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    withRetries<pg.QueryResult<R>>(
      // pg-pool closes the client of a statement that failed, instead of reusing it.
      () =>
        pool.query<R>(text, values).then(
          (value) => ({ ok: true, value }),
          (error: unknown) => ({ ok: false, error, failure: classifyFailure(error), duringCommit: false }),
        ),
      false,
    );

  return { run, query };
}

const succeeded = () => true;
const failed = () => false;
const unlock = (client: pg.PoolClient) =>
  client.query("SELECT pg_advisory_unlock($1)", [turnLock]).then(succeeded, failed);
