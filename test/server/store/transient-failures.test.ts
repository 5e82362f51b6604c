import pg from "pg";
import { describe, expect, it } from "vitest";
import { invalidState } from "../../../src/server/problems.ts";
import { backoffMs, classifyFailure } from "../../../src/server/store/postgres/transient-failures.ts";
import { TurnQueue } from "../../../src/server/store/postgres/turn-queue.ts";

/** An error as pg reports one from the server, with its SQLSTATE. */
function serverError(code: string): pg.DatabaseError {
  const error = new pg.DatabaseError("from the server", 0, "error");
  error.code = code;
  return error;
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("classifyFailure", () => {
  it("counts serialization failures, deadlocks and lock timeouts as contention", () => {
    for (const code of ["40001", "40P01", "55P03"])
      expect(classifyFailure(serverError(code)), code).toBe("contention");
  });

  it("counts timeouts, shutdowns, lost or refused connections and a full server as unavailability", () => {
    for (const code of ["57014", "57P01", "57P03", "25P03", "08006", "53300"]) {
      expect(classifyFailure(serverError(code)), code).toBe("unavailable");
    }
    for (const error of [
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("read ECONNRESET", "ECONNRESET"),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Query read timeout"),
      new Error("Client has encountered a connection error and is not queryable"),
    ]) {
      expect(classifyFailure(error), error.message).toBe("unavailable");
    }
  });

  it("leaves every other failure alone: constraint violations, domain refusals, bugs", () => {
    for (const error of [
      serverError("23505"),
      serverError("42P01"),
      invalidState("paid"),
      new TypeError("x"),
    ]) {
      expect(classifyFailure(error), error.message).toBeUndefined();
    }
    expect(classifyFailure("Connection terminated")).toBeUndefined();
  });
});

describe("backoffMs", () => {
  it("waits a random while below the attempt's ceiling, which doubles up to the cap", () => {
    for (let round = 0; round < 200; round++) {
      for (const [attempt, ceiling] of [
        [1, 10],
        [2, 20],
        [4, 80],
        [9, 100],
      ] as const) {
        const wait = backoffMs(attempt, 10, 100);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(ceiling);
      }
    }
  });
});

describe("TurnQueue", () => {
  it("gives the turn to one holder at a time, in arrival order", async () => {
    const turns = new TurnQueue();
    const order: string[] = [];
    const first = await turns.take(1000);
    const waiting = ["b", "c"].map(async (name) => {
      const release = await turns.take(1000);
      order.push(name);
      release?.();
    });
    order.push("a");
    first?.();
    first?.(); // a second release changes nothing
    await Promise.all(waiting);
    expect(order).toEqual(["a", "b", "c"]);
    expect(await turns.take(0)).toBeTypeOf("function");
  });

  it("answers undefined to a waiter whose turn does not come in time, and serves the next", async () => {
    const turns = new TurnQueue();
    const held = await turns.take(1000);
    expect(await turns.take(10)).toBeUndefined();
    const next = turns.take(1000);
    held?.();
    expect(await next).toBeTypeOf("function");
  });
});
