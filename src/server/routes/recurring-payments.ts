import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import { updateRecurringPayment } from "../domain/recurring-payments.ts";
import { principalOf } from "../http/request-state.ts";

export function recurringPaymentsRouter(ctx: DomainContext): Router {
  const router = Router();
  router.patch("/v2/payouts/recurring/:id", async (req, res) => {
    res.json(await updateRecurringPayment(ctx, principalOf(res), req.params.id, req.body.action));
  });
  return router;
}
