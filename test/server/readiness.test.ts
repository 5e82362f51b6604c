import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { waitUntilReady } from "../../src/server/http/readiness.ts";

const request = {} as Request;
const response = {} as Response;

describe("waitUntilReady", () => {
  it("holds requests until the server's records are in, then lets each through at once", async () => {
    let seed: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      seed = resolve;
    });
    const step = waitUntilReady(ready);
    const passed: string[] = [];
    step(request, response, () => passed.push("early"));
    await Promise.resolve();
    expect(passed).toEqual([]);
    seed();
    await ready;
    await Promise.resolve();
    expect(passed).toEqual(["early"]);
    step(request, response, () => passed.push("later"));
    expect(passed).toEqual(["early", "later"]);
  });

  it("passes the failure of the start-up on to the error handlers", async () => {
    const ready = Promise.reject(new Error("store unreachable"));
    const step = waitUntilReady(ready);
    const failure = await new Promise<unknown>((resolve) => step(request, response, resolve));
    expect((failure as Error).message).toBe("store unreachable");
  });
});
