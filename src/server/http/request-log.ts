import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, Response } from "express";
import morgan from "morgan";
import { type RequestState, stateOf } from "./request-state.ts";

/** How the server reports each request it answered: one line, as text or as a JSON object. */
export interface RequestLogOptions {
  format: "text" | "json";
  /** Receives each line, newline included. */
  write(line: string): void;
}

/** Path parameters that work as credentials (a payment link's token): logged by name only. */
const secretPathParams = new Set(["token"]);

/** The path asked for, without its query, with any secret path parameter replaced by its name. */
function loggedPath(req: Request, state: RequestState | undefined): string {
  if (!state?.route || !state.pathParams) return req.path;
  const { pathParams } = state;
  return state.route.key.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    secretPathParams.has(name) ? whole : encodeURIComponent(pathParams[name] ?? ""),
  );
}

function formatEntry(
  format: RequestLogOptions["format"],
  tokens: morgan.TokenIndexer<Request, Response>,
  req: Request,
  res: Response,
): string {
  // Answered before assignRequestId ran, the state is Express's empty res.locals: no route, no id.
  const state = stateOf(res) as RequestState | undefined;
  const entry = {
    method: req.method,
    path: loggedPath(req, state),
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

/** One line per answered request (morgan), written once the answer is sent or the connection closed. */
export function logRequests(options: RequestLogOptions) {
  return morgan<IncomingMessage, ServerResponse>(
    (tokens, req, res) => formatEntry(options.format, tokens as never, req as Request, res as Response),
    { stream: { write: options.write } },
  );
}
