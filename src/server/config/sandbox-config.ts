import type { components } from "../../../generated/schema.d.ts";
import type { WebhookEventName } from "../../wire/webhook-event.ts";
import type { ClientIdStatus } from "../store/records.ts";

/** The sandbox's configuration: who may call it and how it behaves. JSON-shaped, see config-schema.ts. */

export interface ClientIdConfig {
  /** Internal identifier, the `{id}` of `GET /v2/client-ids/{id}`. */
  id: string;
  /** The public value sent as `x-client-id`. */
  clientId: string;
  label: string;
  /** Origins allowed to use the client ID; `self` stands for the server's own public origin. */
  allowedDomains: string[];
  feePercentage?: string | null;
  feeAddress?: string | null;
  operatorWalletAddress?: string | null;
  defaultPreApprovalExpiry?: number | null;
  defaultAuthorizationExpiry?: number | null;
  status?: ClientIdStatus;
}

/** A receiver of the account's webhook events. */
export interface WebhookEndpointConfig {
  /** The endpoint's id in the sandbox API; `we_config_<account index>_<endpoint index>` when absent. */
  id?: string;
  /** Where events are POSTed: an http(s) URL without credentials or fragment. */
  url: string;
  /** The signing secret; the account's `webhookSecret` when absent. */
  secret?: string;
  /** The events sent to it; all of them when absent. */
  events?: WebhookEventName[];
}

/** An orchestrator of the account, with its key (kept in the store as a hash only). */
export interface OrchestratorConfig {
  /** A ULID, the orchestrator's `id`. */
  id: string;
  name: string;
  /** The value sent as `x-orchestrator-key`: `orc_` and at least 8 more characters. */
  key: string;
}

export interface AccountConfig {
  id: string;
  apiKeys: string[];
  /** The default signing secret of the account's configured webhook endpoints. */
  webhookSecret: string;
  webhookEndpoints?: WebhookEndpointConfig[];
  orchestrators?: OrchestratorConfig[];
  /** Faults in force from the start, as `POST /sandbox/faults` creates them (at most 100). */
  faults?: components["schemas"]["SandboxFaultCreate"][];
  clientIds: ClientIdConfig[];
  /**
   * Wallets whose sign-in (`POST /v1/auth/wallet/verify`) acts for this account, so that its
   * sessions reach the records its API key reaches; any other wallet gets an account of its own.
   */
  wallets?: string[];
}

export interface SandboxConfig {
  accounts: AccountConfig[];
  /** The origin clients reach the server at; defaults to the address it listens on. */
  publicBaseUrl?: string;
  /** The hosted payment page; `securePaymentUrl` is this URL with the `token` query parameter. */
  securePaymentPageUrl?: string;
  securePaymentLifetimeSeconds?: number;
  /** How long an Auth API session lasts after signing in (24 hours by default, at most a year). */
  sessionLifetimeSeconds?: number;
  /** How long a wallet sign-in challenge can be answered (5 minutes by default, at most a day). */
  walletChallengeLifetimeSeconds?: number;
  clientIdRateLimitPerMinute?: number;
  /**
   * Emulate the service's rate limit (`--rate-limit`): client-ID callers counted per client ID
   * and IP, `clientIdRateLimitPerMinute` a minute, then blocked for 5 minutes. Off by default:
   * then each client ID is counted in one-minute windows, without a block.
   */
  rateLimit?: boolean;
  /** How long a request may take to arrive in full, headers and body; then 408 (30 s by default). */
  requestTimeoutMs?: number;
  /** Waits before each retry of a failed webhook attempt; at most three (1 s, 5 s, 15 s by default). */
  webhookRetryDelaysMs?: number[];
  /** How long one webhook attempt may take before it counts as failed (5 s by default). */
  webhookTimeoutMs?: number;
  /**
   * The most webhook attempts an instance has under way at once (32 by default); the due
   * deliveries beyond wait their turn, without a connection.
   */
  maxConcurrentWebhookAttempts?: number;
  /** The most webhook attempts an instance has under way at once to any one endpoint (8 by default). */
  maxConcurrentWebhookAttemptsPerEndpoint?: number;
  /**
   * Webhook targets let through the address guard, which otherwise refuses every endpoint whose
   * host is or resolves to a non-public address (loopback, private, link-local, multicast, ...)
   * at registration and again at each delivery: exact origins (`http://127.0.0.1:4000`) or hosts
   * on any port (`localhost`, `127.0.0.1`, `[::1]`). None by default.
   */
  allowWebhookTargets?: string[];
  /** The most webhook endpoints one account may have, configured and registered together (20 by default). */
  maxWebhookEndpointsPerAccount?: number;
  /**
   * Deprecated: the address guard is always on. `true` is accepted and changes nothing; `false`
   * is refused, naming `allowWebhookTargets` as the way to reach local receivers.
   */
  blockPrivateWebhookTargets?: boolean;
  /** With a shared database: how often each instance looks for deliveries no live instance holds (1 s by default). */
  webhookPollIntervalMs?: number;
  /** How many of the newest events the outbox keeps once the webhook worker has read them (10,000 by default). */
  eventLogRetention?: number;
  /** How many of its newest webhook deliveries each account keeps; older finished ones go (10,000 by default). */
  webhookDeliveryRetention?: number;
  /**
   * Refuse request bodies with members the spec does not describe (400 naming each one), to catch
   * typos. Off by default: like the real service, the server then drops unknown members unread.
   */
  strictBodies?: boolean;
  /** With a database: the longest wait for a connection, opened or free in the pool (5 s by default). */
  databaseConnectTimeoutMs?: number;
  /** With a database: the longest a statement may run; a server that does not answer is waited for a second more (5 s by default). */
  databaseStatementTimeoutMs?: number;
  /** With a database: the longest wait for a lock another transaction holds, or for a contended transaction's turn (2 s by default). */
  databaseLockTimeoutMs?: number;
}

/** The fields config-schema.ts gives a `default`: always present once parseConfig has run. */
type DefaultedField =
  | "securePaymentLifetimeSeconds"
  | "sessionLifetimeSeconds"
  | "walletChallengeLifetimeSeconds"
  | "clientIdRateLimitPerMinute"
  | "rateLimit"
  | "requestTimeoutMs"
  | "webhookRetryDelaysMs"
  | "webhookTimeoutMs"
  | "maxConcurrentWebhookAttempts"
  | "maxConcurrentWebhookAttemptsPerEndpoint"
  | "allowWebhookTargets"
  | "maxWebhookEndpointsPerAccount"
  | "webhookPollIntervalMs"
  | "eventLogRetention"
  | "webhookDeliveryRetention"
  | "strictBodies"
  | "databaseConnectTimeoutMs"
  | "databaseStatementTimeoutMs"
  | "databaseLockTimeoutMs";

/** A checked configuration with every default filled in, as parseConfig answers it. */
export type ResolvedConfig = SandboxConfig & Required<Pick<SandboxConfig, DefaultedField>>;

/** The id a configured webhook endpoint gets when the file names none. */
export function configuredEndpointId(accountIndex: number, endpointIndex: number): string {
  return `we_config_${accountIndex}_${endpointIndex}`;
}

/** The built-in sandbox credentials. They are sandbox-only values, printed at start on purpose. */
export const sampleCredentials = {
  accountId: "acct_sandbox",
  apiKey: "sk_sandbox_3b9f1c2d7e8a4f60",
  clientIdRecordId: "cid_sandbox",
  clientId: "pk_sandbox_7c41e2a9d5b8f036",
  webhookSecret: "whsec_sandbox_9a7d3c1e5b2f4860",
  orchestratorId: "01KM9T0A7Q3D25VT4F5V37E3S3",
  orchestratorKey: "orc_sandbox_4e1b7d2a9c5f3086",
} as const;

export function createDefaultConfig(): SandboxConfig {
  return {
    accounts: [
      {
        id: sampleCredentials.accountId,
        apiKeys: [sampleCredentials.apiKey],
        webhookSecret: sampleCredentials.webhookSecret,
        orchestrators: [
          {
            id: sampleCredentials.orchestratorId,
            name: "Sandbox orchestrator",
            key: sampleCredentials.orchestratorKey,
          },
        ],
        clientIds: [
          {
            id: sampleCredentials.clientIdRecordId,
            clientId: sampleCredentials.clientId,
            label: "Sandbox browser client",
            allowedDomains: ["http://localhost:5173", "self"],
            feePercentage: null,
            feeAddress: null,
            status: "active",
          },
        ],
      },
    ],
  };
}
