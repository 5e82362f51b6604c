import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import { createPaymentDetails, registerPayer } from "../domain/payers.ts";
import { principalOf } from "../http/request-state.ts";

export function payersRouter(ctx: DomainContext): Router {
  const router = Router();
  router.post("/v2/payer", async (req, res) => {
    res.status(200).json(await registerPayer(ctx, principalOf(res), req.body));
  });
  router.post("/v1/payer/:clientUserId/payment-details", async (req, res) => {
    res
      .status(201)
      .json(await createPaymentDetails(ctx, principalOf(res), req.params.clientUserId, req.body));
  });
  return router;
}
