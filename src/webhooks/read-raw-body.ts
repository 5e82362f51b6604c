import { buildProblem } from "../problems/problem-catalogue.ts";
import { answerProblem } from "./problems.ts";
import type { WebhookAnswer } from "./receive.ts";

export type RawBodyRead =
  | { ok: true; body: Uint8Array }
  | { ok: false; reason: "too_large"; length: number | undefined }
  | { ok: false; reason: "encoded"; encoding: string }
  | { ok: false; reason: "aborted" };

/** A read that did not give the body. */
export type RawBodyReadFailure = Exclude<RawBodyRead, { ok: true }>;

/** What reading uses of Node's `IncomingMessage`, declared so public types need no @types/node. */
export interface StreamedRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly readableEnded: boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  resume(): unknown;
}

const events = ["data", "end", "error", "close"] as const;

/**
 * Reads a request body into one Buffer, at most `limit` bytes. Over the limit it stops keeping
 * bytes, lets the rest drain and reports `too_large` at once. Compressed bodies are refused:
 * the signature covers the bytes as sent.
 */
export function readRawBody(req: StreamedRequest, limit: number): Promise<RawBodyRead> {
  return new Promise((resolve) => {
    const encoding = String(req.headers["content-encoding"] ?? "identity")
      .trim()
      .toLowerCase();
    if (encoding !== "identity") {
      req.resume();
      return resolve({ ok: false, reason: "encoded", encoding });
    }
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      return resolve({ ok: false, reason: "too_large", length: declared });
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const listeners = {
      data: (chunk: unknown) => {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
        received += bytes.length;
        if (received > limit) {
          chunks.length = 0;
          req.resume();
          settle({ ok: false, reason: "too_large", length: undefined });
        } else chunks.push(bytes);
      },
      end: () => settle({ ok: true, body: Buffer.concat(chunks, received) }),
      error: () => settle({ ok: false, reason: "aborted" }),
      close: () => settle({ ok: false, reason: "aborted" }),
    };
    const settle = (result: RawBodyRead) => {
      for (const event of events) req.off(event, listeners[event]);
      resolve(result);
    };
    for (const event of events) req.on(event, listeners[event]);
  });
}

/** The problem answer to a body that could not be read; 413 and 415 close the connection. */
export function answerReadFailure(read: RawBodyReadFailure, limit: number): WebhookAnswer {
  switch (read.reason) {
    case "too_large": {
      const size = read.length === undefined ? "larger than the limit" : `${read.length} bytes`;
      return answerProblem(
        buildProblem("payloadTooLarge", `The body is ${size}; the limit is ${limit} bytes.`),
        { connection: "close" },
      );
    }
    case "encoded":
      return answerProblem(
        buildProblem(
          "unsupportedMediaType",
          `The body is sent with Content-Encoding ${read.encoding}; send it uncompressed, as signed.`,
        ),
        { connection: "close" },
      );
    case "aborted":
      return answerProblem(buildProblem("malformedJson", "The body could not be read completely."));
  }
}
