import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { startRequestState } from "./request-state.ts";

const saneRequestId = /^[A-Za-z0-9._:-]{1,200}$/;

/** Echoes a sane incoming X-Request-Id, or makes one; every answer carries it. */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && saneRequestId.test(incoming) ? incoming : randomUUID();
    startRequestState(res, requestId);
    res.setHeader("X-Request-Id", requestId);
    next();
  };
}
