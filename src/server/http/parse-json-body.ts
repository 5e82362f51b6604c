import express, { type RequestHandler } from "express";
import iconv from "iconv-lite";
import { ProblemError, validationFailed } from "../problems.ts";
import {
  findStructureRefusal,
  maxBodyDepth,
  maxBodyStructures,
  pointerAt,
  type StructureRefusal,
} from "./json-structure.ts";
import { stateOf } from "./request-state.ts";

export const bodyLimitBytes = 1_048_576;

/** A body refused by its shape before it is parsed; body-parser hands it back as the error. */
class RefusedStructure extends Error {
  constructor(readonly issue: { path: string; message: string }) {
    super(issue.message);
  }
}

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

/**
 * Refuses a body by its shape before it is parsed. The scan reads UTF-8; a body in another
 * Unicode charset is decoded first, by the decoder body-parser then parses it with.
 */
function checkStructure(bytes: Buffer, encoding: string): void {
  const utf8 = encoding === "utf-8" ? bytes : Buffer.from(iconv.decode(bytes, encoding), "utf8");
  const refusal = findStructureRefusal(utf8);
  if (refusal) throw new RefusedStructure(describeRefusal(utf8, refusal));
}

const parseJson = express.json({
  limit: bodyLimitBytes,
  strict: false,
  type: () => true,
  verify: (_req, _res, buffer, encoding) => checkStructure(buffer, encoding),
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
 * Reads the JSON body of operations that take one: 415 unless it is `application/json`, 413 over
 * 1 MiB, 400 `/problems/malformed-json` when it does not parse. Other operations ignore any body.
 */
export function parseJsonBody(): RequestHandler {
  return (req, res, next) => {
    const route = stateOf(res).route;
    if (!route?.body) return next();
    const contentType = req.get("content-type");
    if (contentType === undefined && !hasBody(req.headers)) {
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
      if (!error) return next();
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
      if (error instanceof RefusedStructure) return next(validationFailed([error.issue]));
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
