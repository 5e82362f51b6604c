import { Router } from "express";
import type { SandboxClock } from "../clock.ts";
import type { DomainContext } from "../domain/context.ts";
import { executeSandboxRecurringPayment } from "../domain/recurring-executions.ts";
import { createSandboxRecurringPayment, readSandboxRecurringPayment } from "../domain/recurring-payments.ts";
import { moveSandboxClock, readSandboxClock } from "../domain/sandbox-clock.ts";
import { readSandboxRequest, recordSandboxPayment } from "../domain/sandbox-payments.ts";
import { endSecurePayment } from "../domain/secure-payments.ts";
import { readWallet, updateWallet } from "../domain/wallet-book.ts";
import { principalOf } from "../http/request-state.ts";

/** The sandbox control API (tag Sandbox): not part of the real service. */
export function sandboxRouter(ctx: DomainContext, clock: SandboxClock): Router {
  const router = Router();
  router.get("/sandbox/clock", (_req, res) => {
    res.json(readSandboxClock(clock));
  });
  router.post("/sandbox/clock", (req, res) => {
    res.json(moveSandboxClock(clock, req.body));
  });
  router.post("/sandbox/wallets", async (req, res) => {
    res.json(await updateWallet(ctx, req.body));
  });
  router.get("/sandbox/wallets/:address", async (req, res) => {
    res.json(await readWallet(ctx, req.params.address));
  });
  router.get("/sandbox/requests/:requestId", async (req, res) => {
    res.json(await readSandboxRequest(ctx, principalOf(res), req.params.requestId));
  });
  router.post("/sandbox/requests/:requestId/payments", async (req, res) => {
    res.status(201).json(await recordSandboxPayment(ctx, principalOf(res), req.params.requestId, req.body));
  });
  router.patch("/sandbox/secure-payments/:token", async (req, res) => {
    res.json(await endSecurePayment(ctx, principalOf(res), req.params.token, req.body.status));
  });
  router.post("/sandbox/recurring-payments", async (req, res) => {
    res.status(201).json(await createSandboxRecurringPayment(ctx, principalOf(res), req.body));
  });
  router.get("/sandbox/recurring-payments/:id", async (req, res) => {
    res.json(await readSandboxRecurringPayment(ctx, principalOf(res), req.params.id));
  });
  router.post("/sandbox/recurring-payments/:id/executions", async (req, res) => {
    res
      .status(201)
      .json(await executeSandboxRecurringPayment(ctx, principalOf(res), req.params.id, req.body));
  });
  return router;
}
