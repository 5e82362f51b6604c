import express, { type Request, type RequestHandler } from "express";
import { ProblemError, validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";

export const bodyLimitBytes = 1_048_576;

/** No operation's body nests deeper than a few levels; deeper bodies would only exhaust the stack. */
export const maxBodyDepth = 64;

class TooDeepError extends Error {}

/** Refuses JSON that nests arrays and objects deeper than `maxBodyDepth`, scanning the raw bytes. */
function checkDepth(buffer: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < buffer.length; index++) {
    const byte = buffer[index];
    if (inString) {
      if (byte === 0x5c)
        index++; // backslash: skip the escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > maxBodyDepth) throw new TooDeepError();
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
}

const parseJson = express.json({
  limit: bodyLimitBytes,
  strict: false,
  type: () => true,
  verify: (_req, _res, buffer) => checkDepth(buffer),
});

interface BodyParserError {
  type?: string;
  length?: number;
  message?: string;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;
}

/**
 * The validator compiles and caches its schemas per request content type: it is shown the one
 * media type the spec documents for the operation (none for operations without a body), so that
 * a charset parameter or other casing costs no second compile at the first such request.
 */
function showSpecMediaType(req: Request, mediaType: string | undefined): void {
  if (mediaType === undefined) delete req.headers["content-type"];
  else req.headers["content-type"] = mediaType;
}

/**
 * Reads the JSON body of operations that take one: 415 unless it is `application/json`, 413 over
 * 1 MiB, 400 `/problems/malformed-json` when it does not parse. Other operations ignore any body.
 */
export function parseJsonBody(): RequestHandler {
  return (req, res, next) => {
    const route = stateOf(res).route;
    if (!route?.body) {
      showSpecMediaType(req, undefined);
      return next();
    }
    const { mediaType } = route.body;
    const contentType = req.get("content-type");
    if (contentType === undefined && !hasBody(req.headers)) {
      showSpecMediaType(req, mediaType);
      if (!route.body.required) return next();
      return next(
        validationFailed([
          { path: "/body", message: "is required: send a JSON body with Content-Type application/json" },
        ]),
      );
    }
    if (!req.is("application/json")) {
      return next(
        new ProblemError(
          "unsupportedMediaType",
          `Send the body as application/json; got ${contentType === undefined ? "no Content-Type" : contentType.split(";")[0]}.`,
        ),
      );
    }
    parseJson(req, res, (error?: unknown) => {
      if (!error) {
        showSpecMediaType(req, mediaType);
        return next();
      }
      const failure = error as BodyParserError;
      if (failure.type === "entity.too.large") {
        const size = failure.length === undefined ? "larger than the limit" : `${failure.length} bytes`;
        return next(
          new ProblemError(
            "payloadTooLarge",
            `The body is ${size}; the limit is ${bodyLimitBytes} bytes (1 MiB).`,
          ),
        );
      }
      if (failure.type === "entity.verify.failed") {
        return next(
          validationFailed([
            {
              path: "/body",
              message: `must not nest arrays and objects more than ${maxBodyDepth} levels deep`,
            },
          ]),
        );
      }
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
