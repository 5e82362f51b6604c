import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { answerReadFailure, readRawBody } from "../../src/webhooks/read-raw-body.ts";

/** A request stream whose events the test emits by hand. */
function stubRequest(headers: Record<string, string> = {}) {
  const stream = new EventEmitter();
  return Object.assign(stream, { headers, readableEnded: false, resume: () => stream });
}

describe("readRawBody", () => {
  it("reports aborted when the stream closes before it ends, and ignores a late end", async () => {
    const req = stubRequest({ "content-length": "40" });
    const read = readRawBody(req, 1024);
    req.emit("data", Buffer.from('{"event":"payment.conf'));
    req.emit("close");
    req.emit("end");
    expect(await read).toEqual({ ok: false, reason: "aborted" });
    expect(["data", "end", "error", "close"].map((event) => req.listenerCount(event))).toEqual([0, 0, 0, 0]);
  });

  it("gives the bytes when the stream ends", async () => {
    const req = stubRequest();
    const read = readRawBody(req, 1024);
    req.emit("data", Buffer.from('{"a":'));
    req.emit("data", "1}");
    req.emit("end");
    req.emit("close");
    expect(await read).toEqual({ ok: true, body: Buffer.from('{"a":1}') });
  });
});

describe("answerReadFailure", () => {
  it("answers an aborted read 400, keeping the connection", () => {
    const detail = "The body could not be read completely.";
    expect(answerReadFailure({ ok: false, reason: "aborted" }, 1024)).toEqual({
      status: 400,
      headers: { "content-type": "application/problem+json; charset=utf-8" },
      body: {
        type: "/problems/malformed-json",
        title: "Malformed JSON",
        status: 400,
        detail,
        statusCode: 400,
        error: "Bad Request",
        message: detail,
      },
    });
  });
});
