// The public types of `payreq/testing`. They name only the spec's generated types, so that the
// package's declarations for this entry stand alone.
import type { components } from "../../generated/schema.d.ts";

type Schemas = components["schemas"];

export interface SandboxOptions {
  /**
   * A PostgreSQL URL (`postgres://...`): the sandbox keeps its records there, as `payreq serve
   * --database` does. Default: in memory, gone at `stop()`.
   */
  databaseUrl?: string;
  /**
   * Members of a sandbox configuration file (docs/reference-server.md, "Configuration file"),
   * laid over the built-in sandbox account's: `strictBodies`, `webhookRetryDelaysMs`, limits, or
   * your own `accounts`. Checked as a file is: a bad member throws, naming it.
   */
  config?: Record<string, unknown>;
  /** The port to listen on, on 127.0.0.1 (default 0: a free port). */
  port?: number;
  /**
   * Registers a receiver on 127.0.0.1 as a webhook endpoint of the account, which verifies and
   * keeps every delivery (`sandbox.webhooks`). Default: true.
   */
  captureWebhooks?: boolean;
}

/** A webhook delivery the capture receiver got, verified with the endpoint's secret. */
export interface CapturedWebhook {
  receivedAt: Date;
  /** `event` of the body, such as `payment.confirmed`. */
  event: string | undefined;
  requestId: string | undefined;
  /** `x-request-network-delivery`: the same on each retry of one delivery. */
  deliveryId: string | undefined;
  retryCount: number | undefined;
  /** `x-request-network-test: true`, on the sandbox's test deliveries. */
  test: boolean;
  /** Whether the signature matched the endpoint's secret (the receiver answers 401 otherwise). */
  signatureValid: boolean;
  /** The body, parsed. */
  payload: unknown;
  /** The body, byte for byte as signed. */
  rawBody: Uint8Array;
}

export interface CapturedWebhooks {
  /** Where the receiver listens: the registered endpoint's URL. */
  url: string;
  /** The endpoint's id in the sandbox (`/sandbox/webhooks/endpoints/{endpointId}`). */
  endpointId: string;
  /** The endpoint's signing secret. */
  secret: string;
  /** Every delivery received so far, in order of arrival. */
  received(): CapturedWebhook[];
  /**
   * The first delivery, received already or to come, of the event named or for which `match`
   * holds; rejects after `timeoutMs` (10 s by default) naming what it waited for.
   */
  waitFor(
    match: string | ((delivery: CapturedWebhook) => boolean),
    options?: { timeoutMs?: number },
  ): Promise<CapturedWebhook>;
  /** Forgets the deliveries received so far. */
  clear(): void;
}

/** The events `trigger` can cause, as `payreq webhooks trigger` does. */
export type TriggerableEvent =
  | "payment.confirmed"
  | "payment.partial"
  | "payment.failed"
  | "payment.processing"
  | "payment.refunded"
  | "request.recurring"
  | "compliance.updated"
  | "payment_detail.updated";

/** What `trigger` may be told; like the options of `payreq webhooks trigger`. */
export interface TriggerOptions {
  /** The request to pay or refund; a new one (125.00 USD in USDC-base) when absent. */
  requestId?: string;
  /** The amount of a partial payment or a refund. */
  amount?: string;
  /** The step of `payment.processing` (`initiated` by default). */
  subStatus?: Schemas["SandboxPaymentRecord"]["subStatus"];
  /** Where a refund goes. */
  refundTo?: string;
  /** The payer of `compliance.updated` and `payment_detail.updated`. */
  clientUserId?: string;
  kycStatus?: Schemas["SandboxPayerUpdate"]["kycStatus"];
  agreementStatus?: Schemas["SandboxPayerUpdate"]["agreementStatus"];
  /** The new status of `payment_detail.updated`. */
  detailStatus?: Schemas["PaymentDetailStatus"];
  /** `secure_payment.access_rejected`: the link that refuses the wallet (a new one, made with a client ID, when absent). */
  token?: string;
  /** `secure_payment.access_rejected`: the refused wallet. */
  wallet?: string;
}

/** A reference server started in this process for a test suite. */
export interface Sandbox {
  /** The server's origin, such as `http://127.0.0.1:41234`; both APIs answer on it. */
  url: string;
  /** The sandbox account's API key (header `x-api-key`). */
  apiKey: string;
  /** The sandbox account's browser client ID (header `x-client-id`), allowed from `clientIdOrigin`. */
  clientId: string;
  clientIdOrigin: string;
  /** The sandbox account's orchestrator key (header `x-orchestrator-key`). */
  orchestratorKey: string;
  /** The sandbox clock of the account: where it stands, and moving it (later recurring periods follow). */
  clock: {
    now(): Promise<string>;
    set(instant: string | Date): Promise<string>;
    advance(seconds: number): Promise<string>;
  };
  /** Records a payment outcome on a request, as if the chain had seen it (`recordSandboxPayment`). */
  recordPayment(
    requestId: string,
    payment: Schemas["SandboxPaymentRecord"],
  ): Promise<Schemas["SandboxRequest"]>;
  /** Makes an event happen the way the service would cause it; its webhook follows. */
  trigger(event: TriggerableEvent, options?: TriggerOptions): Promise<void>;
  /**
   * Faults of the account's calls (`/sandbox/faults`): a status (429 or 503 with `Retry-After`,
   * 500), added latency or a dropped connection, for one operation or all, for the next `calls`
   * calls, a `share` of them, or until removed.
   */
  faults: {
    add(fault: Schemas["SandboxFaultCreate"]): Promise<Schemas["SandboxFault"]>;
    list(): Promise<Schemas["SandboxFault"][]>;
    remove(faultId: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** The capture receiver's deliveries; with `captureWebhooks: false` its methods throw. */
  webhooks: CapturedWebhooks;
  /** Stops the server, the receiver and the webhook worker; closes the database. */
  stop(): Promise<void>;
}
