// Receiving webhooks: sign, verify, dedupe, receive (framework-free or as middleware), and test.

export {
  type ProblemBody,
  type ProblemIssue,
  type ProblemKind,
  problemCatalogue,
} from "../problems/problem-catalogue.ts";
export {
  createMemoryDeliveryStore,
  type DeliveryClaim,
  type DeliveryStore,
  type MemoryDeliveryStore,
  type MemoryDeliveryStoreOptions,
} from "./dedupe-store.ts";
export { type HeaderSource, webhookHeaders } from "./headers.ts";
export {
  createWebhookMiddleware,
  defaultWebhookBodyLimitBytes,
  type WebhookHttpRequest,
  type WebhookMiddleware,
  type WebhookMiddlewareOptions,
} from "./middleware.ts";
export {
  createWebhookReceiver,
  type IncomingWebhook,
  type UnknownWebhookPayload,
  type WebhookAcknowledgement,
  type WebhookAnswer,
  type WebhookDelivery,
  type WebhookReceiver,
  type WebhookReceiverLogger,
  type WebhookReceiverOptions,
} from "./receive.ts";
export type { WebhookHttpResponse } from "./send-answer.ts";
export { type RawBody, signWebhook, type WebhookSecret } from "./sign.ts";
export {
  createSignedWebhookRequest,
  type SignedWebhookRequest,
  type SignedWebhookRequestOptions,
} from "./test-helper.ts";
export {
  checkWebhookSignature,
  type SignatureCheck,
  type SignatureFailureReason,
  type SignatureInput,
  verifyWebhookSignature,
} from "./verify.ts";
