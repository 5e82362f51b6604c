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
  status?: "active" | "inactive" | "revoked";
}

export interface AccountConfig {
  id: string;
  apiKeys: string[];
  /** The secret webhook deliveries to this account are signed with. */
  webhookSecret: string;
  clientIds: ClientIdConfig[];
}

export interface SandboxConfig {
  accounts: AccountConfig[];
  /** The origin clients reach the server at; defaults to the address it listens on. */
  publicBaseUrl?: string;
  /** The hosted payment page; `securePaymentUrl` is this URL with the `token` query parameter. */
  securePaymentPageUrl?: string;
  securePaymentLifetimeSeconds?: number;
  clientIdRateLimitPerMinute?: number;
}

export const defaultSecurePaymentLifetimeSeconds = 7 * 24 * 60 * 60;
export const defaultClientIdRateLimitPerMinute = 300;

/** The built-in sandbox credentials. They are sandbox-only values, printed at start on purpose. */
export const sampleCredentials = {
  accountId: "acct_sandbox",
  apiKey: "sk_sandbox_3b9f1c2d7e8a4f60",
  clientIdRecordId: "cid_sandbox",
  clientId: "pk_sandbox_7c41e2a9d5b8f036",
  webhookSecret: "whsec_sandbox_9a7d3c1e5b2f4860",
} as const;

export function createDefaultConfig(): SandboxConfig {
  return {
    accounts: [
      {
        id: sampleCredentials.accountId,
        apiKeys: [sampleCredentials.apiKey],
        webhookSecret: sampleCredentials.webhookSecret,
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
