import { Router } from "express";
import type { DomainContext } from "../domain/context.ts";
import {
  type DeliveryQuery,
  listWebhookDeliveries,
  readWebhookDelivery,
  redeliverWebhook,
} from "../domain/webhook-deliveries.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  readWebhookEndpoint,
  rotateWebhookEndpointSecret,
  sendWebhookTest,
} from "../domain/webhook-endpoints.ts";
import { principalOf } from "../http/request-state.ts";

/** The sandbox's webhook operations (tag Sandbox): endpoints, test events and the delivery log. */
export function sandboxWebhooksRouter(ctx: DomainContext): Router {
  const router = Router();
  router.post("/sandbox/webhooks/endpoints", async (req, res) => {
    res.status(201).json(await createWebhookEndpoint(ctx, principalOf(res), req.body));
  });
  router.get("/sandbox/webhooks/endpoints", async (_req, res) => {
    res.json(await listWebhookEndpoints(ctx, principalOf(res)));
  });
  router.get("/sandbox/webhooks/endpoints/:endpointId", async (req, res) => {
    res.json(await readWebhookEndpoint(ctx, principalOf(res), req.params.endpointId));
  });
  router.delete("/sandbox/webhooks/endpoints/:endpointId", async (req, res) => {
    await deleteWebhookEndpoint(ctx, principalOf(res), req.params.endpointId);
    res.status(204).end();
  });
  router.post("/sandbox/webhooks/endpoints/:endpointId/rotate-secret", async (req, res) => {
    res.json(await rotateWebhookEndpointSecret(ctx, principalOf(res), req.params.endpointId));
  });
  router.post("/sandbox/webhooks/endpoints/:endpointId/test", async (req, res) => {
    res.status(202).json(await sendWebhookTest(ctx, principalOf(res), req.params.endpointId, req.body));
  });
  router.get("/sandbox/webhooks/deliveries", async (req, res) => {
    res.json(await listWebhookDeliveries(ctx, principalOf(res), req.query as DeliveryQuery));
  });
  router.get("/sandbox/webhooks/deliveries/:deliveryId", async (req, res) => {
    res.json(await readWebhookDelivery(ctx, principalOf(res), req.params.deliveryId));
  });
  router.post("/sandbox/webhooks/deliveries/:deliveryId/redeliver", async (req, res) => {
    res.status(202).json(await redeliverWebhook(ctx, principalOf(res), req.params.deliveryId));
  });
  return router;
}
