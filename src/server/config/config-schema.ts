import { inlinedNamedSchema, schemaEnum } from "../../spec/schemas.ts";
import { loadBundledSpec, type SpecDocument } from "../../spec/spec-document.ts";
import { webhookEventNames } from "../../wire/webhook-event.ts";
import { defaultDatabaseTimeouts } from "../store/database-timeouts.ts";

/**
 * How Ajv compiles the schema below, at build time (scripts/build-config-validator.ts): every
 * error, defaults filled in. Strict mode refuses unknown keywords; checking the schema against
 * the JSON Schema meta-schema is left to a test.
 */
export const sandboxConfigAjvOptions = {
  allErrors: true,
  strict: true,
  useDefaults: true,
  validateSchema: false,
} as const;

/**
 * JSON Schema (2020-12) of a sandbox configuration file; see SandboxConfig. The `default`s are the
 * configuration's defaults: parseConfig fills them in once, and nothing else repeats them. Its
 * faults and client-ID statuses are the spec's: the build passes the spec it has just bundled.
 */
export function sandboxConfigSchema(spec: SpecDocument = loadBundledSpec()) {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    required: ["accounts"],
    properties: {
      accounts: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["id", "apiKeys", "webhookSecret", "clientIds"],
          properties: {
            id: { type: "string", minLength: 1, maxLength: 100 },
            apiKeys: {
              type: "array",
              minItems: 1,
              items: { type: "string", minLength: 16, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" },
            },
            webhookSecret: { type: "string", minLength: 16, maxLength: 200 },
            webhookEndpoints: {
              type: "array",
              maxItems: 20,
              items: {
                type: "object",
                additionalProperties: false,
                required: ["url"],
                properties: {
                  id: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$" },
                  url: { type: "string", maxLength: 2048, pattern: "^https?://\\S+$" },
                  secret: { type: "string", minLength: 16, maxLength: 200 },
                  events: {
                    type: "array",
                    minItems: 1,
                    uniqueItems: true,
                    items: { enum: webhookEventNames },
                  },
                },
              },
            },
            orchestrators: {
              type: "array",
              maxItems: 20,
              items: {
                type: "object",
                additionalProperties: false,
                required: ["id", "name", "key"],
                properties: {
                  id: { type: "string", pattern: "^[0-9A-HJKMNP-TV-Z]{26}$" },
                  name: { type: "string", minLength: 1, maxLength: 200 },
                  key: {
                    type: "string",
                    minLength: 16,
                    maxLength: 200,
                    pattern: "^orc_[A-Za-z0-9_]{8,200}$",
                  },
                },
              },
            },
            // Faults in force from the start, as POST /sandbox/faults creates them.
            faults: { type: "array", maxItems: 100, items: inlinedNamedSchema("SandboxFaultCreate", spec) },
            wallets: {
              type: "array",
              maxItems: 20,
              uniqueItems: true,
              items: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
            },
            clientIds: {
              type: "array",
              items: {
                type: "object",
                additionalProperties: false,
                required: ["id", "clientId", "label", "allowedDomains"],
                properties: {
                  id: { type: "string", minLength: 1, maxLength: 200 },
                  clientId: { type: "string", minLength: 8, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" },
                  label: { type: "string" },
                  allowedDomains: {
                    type: "array",
                    items: {
                      type: "string",
                      pattern: "^(self|https?://[^/?#\\s]+)$",
                    },
                  },
                  feePercentage: {
                    type: ["string", "null"],
                    pattern: "^(100(\\.0+)?|\\d{1,2}(\\.\\d+)?)$",
                  },
                  feeAddress: { type: ["string", "null"], pattern: "^0x[0-9a-fA-F]{40}$" },
                  operatorWalletAddress: { type: ["string", "null"], pattern: "^0x[0-9a-fA-F]{40}$" },
                  defaultPreApprovalExpiry: { type: ["number", "null"], minimum: 0 },
                  defaultAuthorizationExpiry: { type: ["number", "null"], minimum: 0 },
                  status: { enum: [...schemaEnum("ClientIdStatus", spec)] },
                },
              },
            },
          },
        },
      },
      publicBaseUrl: { type: "string", pattern: "^https?://[^/?#\\s]+$" },
      securePaymentPageUrl: { type: "string", pattern: "^https?://[^\\s#]+$" },
      // Links live 7 days unless paid, as on the service; at most ten years, so that an expiry from any
      // sandbox clock instant is still a valid date.
      securePaymentLifetimeSeconds: {
        type: "integer",
        minimum: 1,
        maximum: 315_360_000,
        default: 7 * 24 * 60 * 60,
      },
      // Auth API sessions last a day, and a wallet challenge 5 minutes, unless configured.
      sessionLifetimeSeconds: { type: "integer", minimum: 1, maximum: 31_536_000, default: 24 * 60 * 60 },
      walletChallengeLifetimeSeconds: { type: "integer", minimum: 1, maximum: 86_400, default: 5 * 60 },
      clientIdRateLimitPerMinute: { type: "integer", minimum: 1, default: 300 },
      // The service's own rate limit: per client ID and IP, then a 5-minute block (docs/faults-and-rate-limits.md).
      rateLimit: { type: "boolean", default: false },
      requestTimeoutMs: { type: "integer", minimum: 100, maximum: 600_000, default: 30_000 },
      webhookRetryDelaysMs: {
        type: "array",
        maxItems: 3,
        items: { type: "integer", minimum: 0, maximum: 3_600_000 },
        default: [1000, 5000, 15000],
      },
      webhookTimeoutMs: { type: "integer", minimum: 1, maximum: 60_000, default: 5000 },
      // How many webhook attempts each instance has under way at once, in all and to one endpoint.
      maxConcurrentWebhookAttempts: { type: "integer", minimum: 1, maximum: 1000, default: 32 },
      maxConcurrentWebhookAttemptsPerEndpoint: { type: "integer", minimum: 1, maximum: 1000, default: 8 },
      allowWebhookTargets: {
        type: "array",
        maxItems: 100,
        items: { type: "string", minLength: 1, maxLength: 300 },
        default: [],
      },
      maxWebhookEndpointsPerAccount: { type: "integer", minimum: 1, maximum: 1000, default: 20 },
      blockPrivateWebhookTargets: { type: "boolean" },
      // With a shared database, how often each instance looks for deliveries no live instance holds.
      webhookPollIntervalMs: { type: "integer", minimum: 10, maximum: 60_000, default: 1000 },
      // Retention: the newest events of the outbox, and the newest deliveries of each account.
      eventLogRetention: { type: "integer", minimum: 1, default: 10_000 },
      webhookDeliveryRetention: { type: "integer", minimum: 1, default: 10_000 },
      strictBodies: { type: "boolean", default: false },
      // With a database: how long to wait for it before answering 503 (docs/shared-sandbox.md).
      databaseConnectTimeoutMs: {
        type: "integer",
        minimum: 100,
        maximum: 60_000,
        default: defaultDatabaseTimeouts.connectTimeoutMs,
      },
      databaseStatementTimeoutMs: {
        type: "integer",
        minimum: 100,
        maximum: 600_000,
        default: defaultDatabaseTimeouts.statementTimeoutMs,
      },
      databaseLockTimeoutMs: {
        type: "integer",
        minimum: 10,
        maximum: 60_000,
        default: defaultDatabaseTimeouts.lockTimeoutMs,
      },
    },
  } as const;
}

/** Plain-words hints for the patterns above, used in error messages. */
export const configPatternHints: Record<string, string> = {
  "^(self|https?://[^/?#\\s]+)$": "an origin such as https://shop.example.com (no path), or self",
  "^https?://[^/?#\\s]+$": "an origin such as https://sandbox.example.com (no path)",
  "^https?://[^\\s#]+$": "an http(s) URL",
  "^0x[0-9a-fA-F]{40}$": "an EVM address (0x and 40 hex digits)",
  "^(100(\\.0+)?|\\d{1,2}(\\.\\d+)?)$": "a percentage from 0 to 100 such as 2.5",
  "^[\\x21-\\x7e]+$": "printable ASCII without spaces",
  "^https?://\\S+$": "an http or https URL",
  "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$": "up to 64 letters, digits, _ or -, starting with a letter or digit",
};
