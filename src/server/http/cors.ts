import type { RequestHandler } from "express";
import { allowsOrigin } from "../domain/shared/client-ids.ts";
import { ProblemError } from "../problems.ts";
import type { Store } from "../store/store.ts";
import type { CorsPolicy } from "./cors-policy.ts";
import { sendProblem } from "./send-problem.ts";

/**
 * CORS for browser callers: an origin is answered with CORS headers only when it is an allowed
 * domain of an active client ID. Preflights from any other origin answer 403.
 */
export function answerCors(store: Store, publicOrigin: () => string, policy: CorsPolicy): RequestHandler {
  return async (req, res, next) => {
    const origin = req.get("origin");
    if (origin === undefined) return next();
    const { items: clientIds } = await store.clientIds.find("all", {});
    const ownOrigin = publicOrigin();
    const allowed = clientIds.some((record) => allowsOrigin(record, origin, ownOrigin));
    res.vary("Origin");
    const preflight = req.method === "OPTIONS" && req.get("access-control-request-method") !== undefined;
    if (!allowed) {
      if (!preflight) return next();
      return sendProblem(
        req,
        res,
        new ProblemError(
          "originNotAllowed",
          `Origin ${origin} is not among the allowed domains of any client ID.`,
        ),
      );
    }
    res.set("Access-Control-Allow-Origin", origin);
    res.set("Access-Control-Expose-Headers", policy.exposedHeaders);
    if (!preflight) return next();
    res.set("Access-Control-Allow-Methods", policy.allowedMethods);
    res.set("Access-Control-Allow-Headers", policy.allowedHeaders);
    res.set("Access-Control-Max-Age", "600");
    res.status(204).end();
  };
}
