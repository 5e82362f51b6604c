import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import { getPayCalldata, type PayCalldataQuery } from "../domain/pay-calldata.ts";
import { principalOf } from "../http/request-state.ts";

export function payCalldataRouter(ctx: DomainContext): Router {
  const router = Router();
  router.get("/v2/request/:requestId/pay", async (req, res) => {
    const query = req.query as PayCalldataQuery;
    res.json(await getPayCalldata(ctx, principalOf(res), req.params.requestId, query));
  });
  return router;
}
