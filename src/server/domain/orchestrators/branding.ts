import { newUlid } from "../../ids.ts";
import { invalidField, notFound, ProblemError } from "../../problems.ts";
import type { BrandingSettings, OrchestratorBrandingRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callingOrchestrator, findLinkedClientId, notLinked } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireBranding } from "./orchestrator-wire.ts";

/** The `parent` of an orchestrator's own branding (a linked client ID's override names the client ID). */
export const orchestratorParent = "orchestrator";

const unset: BrandingSettings = {
  logoPath: null,
  pageBackgroundColor: null,
  cardBackgroundColor: null,
  primaryActionColor: null,
  primaryTextColor: null,
  secondaryTextColor: null,
  termsPath: null,
  privacyPath: null,
  displayRequestBranding: false,
};

/** What a branding call is about: the orchestrator, or the linked client ID named in `location`. */
async function parentOf(
  tx: StoreOperations,
  principal: Principal,
  clientId: string | undefined,
  location: string,
) {
  if (clientId === undefined) return { parent: orchestratorParent, clientIdId: null };
  const linked = await findLinkedClientId(tx, principal, clientId);
  if (!linked) throw notLinked(location, clientId);
  return { parent: linked.clientId.id, clientIdId: linked.clientId.id };
}

function findBranding(tx: StoreOperations, principal: Principal, parent: string) {
  return tx.orchestratorBrandings.first("parent", {
    orchestratorId: callingOrchestrator(principal).id,
    parent,
  });
}

/** The members of `settings` that were sent. */
function sentSettings(body: Partial<BrandingSettings> & { clientId?: string }): Partial<BrandingSettings> {
  const { clientId: _clientId, ...settings } = body;
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

export async function getOrchestratorBranding(
  ctx: DomainContext,
  { principal, query }: OperationInput<"getOrchestratorBranding">,
): Promise<Schemas["OrchestratorBranding"] | null> {
  const { parent } = await parentOf(ctx.store, principal, query.clientId, "/query/clientId");
  const own = await findBranding(ctx.store, principal, parent);
  const found =
    own ??
    (parent === orchestratorParent
      ? undefined
      : await findBranding(ctx.store, principal, orchestratorParent));
  return found ? toWireBranding(found) : null;
}

export async function createOrchestratorBranding(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createOrchestratorBranding">,
): Promise<Schemas["OrchestratorBranding"]> {
  const orchestrator = callingOrchestrator(principal);
  return ctx.store.withTransaction(async (tx) => {
    const { parent, clientIdId } = await parentOf(tx, principal, body.clientId, "/body/clientId");
    if (await findBranding(tx, principal, parent)) {
      throw new ProblemError(
        "alreadyExists",
        `This ${clientIdId ? "client ID" : "orchestrator"} already has a branding; change it with PATCH /v2/orchestrators/branding.`,
      );
    }
    const at = ctx.clock.now().toISOString();
    const record: OrchestratorBrandingRecord = {
      id: newUlid(ctx.clock.now()),
      accountId: orchestrator.accountId,
      orchestratorId: orchestrator.id,
      clientIdId,
      parent,
      ...unset,
      ...sentSettings(body),
      createdAt: at,
      updatedAt: at,
    };
    await tx.orchestratorBrandings.put(record);
    return toWireBranding(record);
  });
}

export async function updateOrchestratorBranding(
  ctx: DomainContext,
  { principal, body }: OperationInput<"updateOrchestratorBranding">,
): Promise<Schemas["OrchestratorBranding"]> {
  const changes = sentSettings(body);
  if (Object.keys(changes).length === 0) {
    throw invalidField("/body", "send at least one branding member besides clientId");
  }
  return ctx.store.withTransaction(async (tx) => {
    const { parent, clientIdId } = await parentOf(tx, principal, body.clientId, "/body/clientId");
    const record = await findBranding(tx, principal, parent);
    if (!record) {
      throw notFound(
        `This ${clientIdId ? "client ID" : "orchestrator"} has no branding; create it with POST /v2/orchestrators/branding.`,
      );
    }
    const updated = { ...record, ...changes, updatedAt: ctx.clock.now().toISOString() };
    await tx.orchestratorBrandings.put(updated);
    return toWireBranding(updated);
  });
}

export async function removeOrchestratorBranding(
  ctx: DomainContext,
  { principal, query }: OperationInput<"removeOrchestratorBranding">,
): Promise<Schemas["OrchestratorBrandingRemoved"]> {
  return ctx.store.withTransaction(async (tx) => {
    const { parent } = await parentOf(tx, principal, query.clientId, "/query/clientId");
    const record = await findBranding(tx, principal, parent);
    if (!record) return { removed: false };
    await tx.orchestratorBrandings.delete(record.id);
    return { removed: true };
  });
}
