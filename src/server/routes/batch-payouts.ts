import { Router } from "express";
import { createBatchPayout } from "../domain/batch-payouts.ts";
import type { DomainContext } from "../domain/context.ts";
import { principalOf } from "../http/request-state.ts";

export function batchPayoutsRouter(ctx: DomainContext): Router {
  const router = Router();
  router.post("/v2/payouts/batch", async (req, res) => {
    res.status(201).json(await createBatchPayout(ctx, principalOf(res), req.body));
  });
  return router;
}
