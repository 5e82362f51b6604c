import { Router } from "express";
import { readClientId } from "../domain/client-ids.ts";
import type { DomainContext } from "../domain/context.ts";
import { principalOf } from "../http/request-state.ts";

export function clientIdsRouter(ctx: DomainContext): Router {
  const router = Router();
  router.get("/v2/client-ids/:id", async (req, res) => {
    res.json(await readClientId(ctx, principalOf(res), req.params.id));
  });
  return router;
}
