import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import { checkSecurePaymentToken, createSecurePayment } from "../domain/secure-payments.ts";
import { principalOf } from "../http/request-state.ts";

export function securePaymentsRouter(ctx: DomainContext): Router {
  const router = Router();
  router.post("/v2/secure-payments", async (req, res) => {
    res.status(201).json(await createSecurePayment(ctx, principalOf(res), req.body));
  });
  router.get("/v2/secure-payments/:token", async (req, res) => {
    res.json(await checkSecurePaymentToken(ctx, principalOf(res), req.params.token));
  });
  return router;
}
