import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { createReadiness } from "../../src/server/http/readiness.ts";

const request = {} as Request;
const response = {} as Response;

/** Whether waitUntilReady lets a request through at once, as it does once the server is open. */
function passesAtOnce(readiness: ReturnType<typeof createReadiness>): boolean {
  let passed = false;
  readiness.waitUntilReady(request, response, () => {
    passed = true;
  });
  return passed;
}

describe("createReadiness", () => {
  it("settles holdDuring only once the server is open again, with the work's value", async () => {
    const readiness = createReadiness(Promise.resolve(), () => false);
    await Promise.resolve();
    expect(passesAtOnce(readiness)).toBe(true);
    // What follows holdDuring (the background warm-up, which counts the quiet since the server
    // opened) runs with the server open, not a few ticks before it opens.
    const openWhenSettled = await readiness
      .holdDuring(Promise.resolve("compiled"))
      .then((value) => ({ value, open: passesAtOnce(readiness) }));
    expect(openWhenSettled).toEqual({ value: "compiled", open: true });
  });

  it("opens too when the work fails, and passes the failure on", async () => {
    const readiness = createReadiness(Promise.resolve(), () => false);
    const openWhenFailed = await readiness
      .holdDuring(Promise.reject(new Error("spec cannot be served")))
      .then(
        () => ({ failure: undefined, open: false }),
        (error: Error) => ({ failure: error.message, open: passesAtOnce(readiness) }),
      );
    expect(openWhenFailed).toEqual({ failure: "spec cannot be served", open: true });
  });
});
