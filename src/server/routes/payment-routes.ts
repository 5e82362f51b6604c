import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import { listPaymentRoutes, type PaymentRoutesQuery } from "../domain/payment-routes.ts";
import { principalOf } from "../http/request-state.ts";

export function paymentRoutesRouter(ctx: DomainContext): Router {
  const router = Router();
  router.get("/v1/request/:paymentReference/routes", async (req, res) => {
    const query = req.query as unknown as PaymentRoutesQuery;
    res.json(await listPaymentRoutes(ctx, principalOf(res), req.params.paymentReference, query));
  });
  return router;
}
