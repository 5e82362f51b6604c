import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, Response } from "express";
import morgan from "morgan";
import { unmatchedPathNamer } from "../../spec/unmatched-path.ts";
import { type RequestState, stateOf } from "./request-state.ts";

/** How the server reports each request it answered: one line, as text or as a JSON object. */
export interface RequestLogOptions {
  format: "text" | "json";
  /** Receives each line, newline included. */
  write(line: string): void;
}

/** Names a path that matches no operation without the segments that could hold a secret. */
type NameUnmatchedPath = (path: string) => string;

/** Path parameters that work as credentials (a payment link's token): logged by name only. */
const secretPathParams = new Set(["token"]);

/**
 * The path asked for, without its query, with any secret path parameter replaced by its name; a
 * path of no operation keeps only its word-like segments (unmatched-path.ts).
 */
function loggedPath(req: Request, state: RequestState | undefined, nameUnmatched: NameUnmatchedPath): string {
  if (!state?.route || !state.pathParams) return nameUnmatched(req.path);
  const { pathParams } = state;
  return state.route.key.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    secretPathParams.has(name) ? whole : encodeURIComponent(pathParams[name] ?? ""),
  );
}

function formatEntry(
  format: RequestLogOptions["format"],
  nameUnmatched: NameUnmatchedPath,
  tokens: morgan.TokenIndexer<Request, Response>,
  req: Request,
  res: Response,
): string {
  // Answered before assignRequestId ran, the state is Express's empty res.locals: no route, no id.
  const state = stateOf(res) as RequestState | undefined;
  const entry = {
    method: req.method,
    path: loggedPath(req, state, nameUnmatched),
    operationId: state?.route?.operationId ?? null,
    // A connection closed before the answer was sent has no status.
    status: res.headersSent ? res.statusCode : null,
    ms: Number(tokens["response-time"]?.(req, res, "1") ?? Number.NaN),
    requestId: state?.requestId ?? null,
  };
  if (format === "json") return JSON.stringify({ time: new Date().toISOString(), ...entry });
  return [
    entry.method,
    entry.path,
    entry.status ?? "(closed before the answer)",
    entry.operationId ?? "-",
    `${entry.ms.toFixed(1)} ms`,
  ].join(" ");
}

/**
 * One line per answered request (morgan), written once the answer is sent or the connection
 * closed. `pathTemplates` are the spec's, which name the segments a path of no operation keeps.
 */
export function logRequests(options: RequestLogOptions, pathTemplates: readonly string[]) {
  const nameUnmatched = unmatchedPathNamer(pathTemplates);
  return morgan<IncomingMessage, ServerResponse>(
    (tokens, req, res) =>
      formatEntry(options.format, nameUnmatched, tokens as never, req as Request, res as Response),
    { stream: { write: options.write } },
  );
}
