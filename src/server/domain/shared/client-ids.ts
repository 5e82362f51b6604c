import type { ClientIdConfig } from "../../config/sandbox-config.ts";
import type { ClientIdRecord } from "../../store/records.ts";

/** The record a configured client ID starts as. */
export function clientIdRecordFromConfig(
  accountId: string,
  config: ClientIdConfig,
  now: Date,
): ClientIdRecord {
  return {
    id: config.id,
    accountId,
    clientId: config.clientId,
    label: config.label,
    allowedDomains: [...config.allowedDomains],
    feePercentage: config.feePercentage ?? null,
    feeAddress: (config.feeAddress ?? null) as ClientIdRecord["feeAddress"],
    operatorWalletAddress: (config.operatorWalletAddress ?? null) as ClientIdRecord["operatorWalletAddress"],
    defaultPreApprovalExpiry: config.defaultPreApprovalExpiry ?? null,
    defaultAuthorizationExpiry: config.defaultAuthorizationExpiry ?? null,
    status: config.status ?? "active",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    lastUsedAt: null,
  };
}

/**
 * Whether a client ID is a backend one: created with no allowed domains, for servers, which send
 * no Origin. The service checks no Origin for it.
 */
export function isBackendClientId(record: ClientIdRecord): boolean {
  return record.allowedDomains.length === 0;
}

/** The origins a client ID accepts, with `self` read as the server's public origin. */
export function effectiveAllowedDomains(record: ClientIdRecord, publicOrigin: string): string[] {
  return [...new Set(record.allowedDomains.map((domain) => (domain === "self" ? publicOrigin : domain)))];
}

/** Whether a client ID is active and accepts calls from `origin`. */
export function allowsOrigin(record: ClientIdRecord, origin: string, publicOrigin: string): boolean {
  return record.status === "active" && effectiveAllowedDomains(record, publicOrigin).includes(origin);
}
