import type {
  ClientIdLinkIntentRecord,
  OrchestratorBrandingRecord,
  OrchestratorClientIdLinkRecord,
  OrchestratorFeeConfigRecord,
  OrchestratorRecord,
  WebhookEndpointRecord,
} from "../../store/records.ts";
import type { Schemas } from "../shared/wire-types.ts";

export function toWireOrchestrator(record: OrchestratorRecord): Schemas["Orchestrator"] {
  const { id, name, supportEmail, status, createdAt, updatedAt } = record;
  return { id, name, supportEmail, status, createdAt, updatedAt };
}

/** The orchestrator's key as described afterwards: never its value. */
export function toWireOrchestratorKey(record: OrchestratorRecord): Schemas["OrchestratorKey"] {
  return {
    id: record.keyId,
    orchestratorId: record.id,
    keyPrefix: record.keyPrefix,
    status: "active",
    createdAt: record.createdAt,
    updatedAt: record.createdAt,
  };
}

export function toWireLink(record: OrchestratorClientIdLinkRecord): Schemas["OrchestratorClientIdLink"] {
  const { id, clientIdId, orchestratorId, status, consentedAt, createdAt, updatedAt, revokedAt, clientId } =
    record;
  return {
    id,
    clientIdId,
    orchestratorId,
    status,
    consentedAt,
    createdAt,
    updatedAt,
    ...(revokedAt ? { revokedAt } : {}),
    clientId,
    ...(record.kyt ? { kyt: record.kyt } : {}),
  };
}

export function toWireIntent(record: ClientIdLinkIntentRecord): Schemas["ClientIdLinkIntent"] {
  const { accountId: _account, ...wire } = record;
  return wire;
}

/** A fee configuration: an override names its client ID, the default its orchestrator. */
export function toWireFeeConfig(record: OrchestratorFeeConfigRecord): Schemas["OrchestratorFeeConfig"] {
  const { id, bps, usdCap, feeBearer, evmRecipientAddress, tronRecipientAddress, status, flow } = record;
  return {
    id,
    feeType: "orchestrator_fee",
    bps,
    usdCap,
    feeBearer,
    evmRecipientAddress,
    tronRecipientAddress,
    status,
    flow,
    ...(record.clientIdId && record.clientId
      ? { clientIdId: record.clientIdId, clientId: record.clientId }
      : { orchestratorId: record.orchestratorId }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** A branding: an override names its client ID, the orchestrator's own its orchestrator. */
export function toWireBranding(record: OrchestratorBrandingRecord): Schemas["OrchestratorBranding"] {
  const {
    accountId: _account,
    orchestratorId,
    clientIdId,
    parent: _parent,
    createdAt: _c,
    updatedAt: _u,
    ...settings
  } = record;
  return { ...(clientIdId ? { clientIdId } : { orchestratorId }), ...settings };
}

export function toWireWebhook(record: WebhookEndpointRecord): Schemas["OrchestratorWebhook"] {
  return { id: record.id, url: record.url, isActive: record.active !== false, createdAt: record.createdAt };
}
