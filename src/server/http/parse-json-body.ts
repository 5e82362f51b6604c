import express, { type Request, type RequestHandler } from "express";
import iconv from "iconv-lite";
import { escapePointerToken, isObject } from "../../spec/spec-document.ts";
import { ProblemError, validationFailed } from "../problems.ts";
import { markAnsweredEarly } from "./client-errors.ts";
import {
  findStructureRefusal,
  maxBodyDepth,
  maxBodyStructures,
  pointerAt,
  type StructureRefusal,
} from "./json-structure.ts";
import { stateOf } from "./request-state.ts";

export const bodyLimitBytes = 1_048_576;

/** A body refused by what it holds before it is parsed; body-parser hands it back as the error. */
class RefusedBody extends Error {
  constructor(readonly issue: { path: string; message: string }) {
    super(issue.message);
  }
}

/** A body of no bytes; body-parser would read it as `{}`. */
class EmptyBody extends Error {}

function describeRefusal(bytes: Uint8Array, refusal: StructureRefusal): { path: string; message: string } {
  if (refusal.reason === "tooDeep") {
    return {
      path: "/body",
      message: `must not nest arrays and objects more than ${maxBodyDepth} levels deep`,
    };
  }
  const { largest, structures } = refusal;
  const size = `${largest.size} ${largest.kind === "object" ? "members" : "items"}`;
  return {
    path: `/body${pointerAt(bytes, largest.offset)}`,
    message: `has ${size}: a body may hold at most ${maxBodyStructures} objects, arrays and members, and this one holds ${structures}`,
  };
}

export const nulCharacterMessage = "must not contain the NUL character (U+0000)";

/** The JSON Pointer of the first string or member name in `value` holding a NUL character. */
export function findNulCharacter(value: unknown): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? "" : undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, member] of entries) {
    const token = typeof key === "number" ? String(key) : escapePointerToken(key);
    if (typeof key === "string" && key.includes("\u0000")) return `/${token}`;
    const below = findNulCharacter(member);
    if (below !== undefined) return `/${token}${below}`;
  }
  return undefined;
}

/** JSON writes a NUL character in a string only as this escape. */
const nulEscape = Buffer.from("\\u0000");

/**
 * Refuses a body by what it holds before it is parsed: too deep or too many structures, or a
 * string with a NUL character, which PostgreSQL cannot keep (both stores refuse it alike). The
 * scan reads UTF-8; a body in another Unicode charset is decoded first, by the decoder
 * body-parser then parses it with.
 */
function checkBody(bytes: Buffer, encoding: string): void {
  if (bytes.length === 0) throw new EmptyBody();
  const utf8 = encoding === "utf-8" ? bytes : Buffer.from(iconv.decode(bytes, encoding), "utf8");
  const refusal = findStructureRefusal(utf8);
  if (refusal) throw new RefusedBody(describeRefusal(utf8, refusal));
  // Only a body with the escape is parsed here to find where it is (`\\u0000` is not one).
  if (utf8.includes(nulEscape)) {
    let pointer: string | undefined;
    try {
      pointer = findNulCharacter(JSON.parse(utf8.toString("utf8")));
    } catch {
      return; // malformed JSON: the parser names it
    }
    if (pointer !== undefined)
      throw new RefusedBody({ path: `/body${pointer}`, message: nulCharacterMessage });
  }
}

const parseJson = express.json({
  limit: bodyLimitBytes,
  strict: false,
  type: () => true,
  verify: (_req, _res, buffer, encoding) => checkBody(buffer, encoding),
});

const requiredBodyMessage = "is required: send a JSON body with Content-Type application/json";

interface BodyParserError {
  type?: string;
  message?: string;
}

/** The declared length of a body, when a valid Content-Length gives one. */
function declaredLength(req: Request): number | undefined {
  const header = req.headers["content-length"];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

function hasBody(req: Request): boolean {
  return req.headers["transfer-encoding"] !== undefined || (declaredLength(req) ?? 0) > 0;
}

/** What of a body over the limit is still read, unparsed, after its 413: then the connection closes. */
const discardedBytesLimit = 2 * bodyLimitBytes;

/**
 * 413 for a body over the limit, as soon as that is known: from its Content-Length before any
 * byte is read, or from the bytes of a body without one as they arrive. Nothing more of the body
 * is parsed or kept. A client still sending a body a little over the limit can finish and read
 * the answer; past `discardedBytesLimit` more, the connection is closed.
 */
function tooLarge(req: Request, size: string): ProblemError {
  markAnsweredEarly(req.socket);
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > discardedBytesLimit) req.socket.destroy();
  });
  return new ProblemError(
    "payloadTooLarge",
    `The body is ${size}; the limit is ${bodyLimitBytes} bytes (1 MiB).`,
  );
}

/**
 * Reads the JSON body of operations that take one: 415 unless it is `application/json`, 413 over
 * 1 MiB, 400 `/problems/malformed-json` when it does not parse, 400 when a required body is
 * missing or empty. Other operations ignore any body.
 */
export function parseJsonBody(): RequestHandler {
  return (req, res, next) => {
    const route = stateOf(res).route;
    if (!route?.body) return next();
    const contentType = req.get("content-type");
    if (!hasBody(req)) {
      if (!route.body.required) return next();
      return next(validationFailed([{ path: "/body", message: requiredBodyMessage }]));
    }
    if (!req.is("application/json")) {
      return next(
        new ProblemError(
          "unsupportedMediaType",
          `Send the body as application/json; got ${contentType === undefined ? "no Content-Type" : contentType.split(";")[0]}.`,
        ),
      );
    }
    const length = declaredLength(req);
    if (length !== undefined && length > bodyLimitBytes) return next(tooLarge(req, `${length} bytes`));
    // A body without a declared length is counted as it arrives; past the limit it is answered at
    // once, and what body-parser reports afterwards is not answered again.
    let answered = false;
    let received = 0;
    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= bodyLimitBytes || answered) return;
      answered = true;
      req.off("data", countBytes);
      next(tooLarge(req, "larger than the limit"));
    };
    if (length === undefined) req.on("data", countBytes);
    parseJson(req, res, (error?: unknown) => {
      req.off("data", countBytes);
      if (answered) return;
      answered = true;
      if (!error) return next();
      if (error instanceof EmptyBody) {
        req.body = undefined;
        if (!route.body?.required) return next();
        return next(validationFailed([{ path: "/body", message: requiredBodyMessage }]));
      }
      if (error instanceof RefusedBody) return next(validationFailed([error.issue]));
      const failure = error as BodyParserError;
      if (failure.type === "entity.too.large") return next(tooLarge(req, "larger than the limit"));
      if (failure.type === "encoding.unsupported" || failure.type === "charset.unsupported") {
        return next(
          new ProblemError("unsupportedMediaType", `Send the body as UTF-8 JSON: ${failure.message}.`),
        );
      }
      if (failure.type === "entity.parse.failed") {
        return next(new ProblemError("malformedJson", `The body is not valid JSON: ${failure.message}.`));
      }
      next(new ProblemError("malformedJson", "The body could not be read completely."));
    });
  };
}
