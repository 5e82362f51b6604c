import { newUlid } from "../../ids.ts";
import { invalidField, notFound } from "../../problems.ts";
import type { OrchestratorClientIdLinkRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callingOrchestrator, findOwnRecord } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireLink } from "./orchestrator-wire.ts";

const defaultLimit = 50;

/** The calling orchestrator's active links, oldest first, a page (from 1) at a time. */
export async function listOrchestratorClientIds(
  ctx: DomainContext,
  { principal, query }: OperationInput<"listOrchestratorClientIds">,
): Promise<Schemas["OrchestratorClientIdLinkList"]> {
  const orchestrator = callingOrchestrator(principal);
  const page = query.page ?? 1;
  const limit = query.limit ?? defaultLimit;
  const all = (await ctx.store.orchestratorClientIdLinks.find("orchestrator", orchestrator.id)).items;
  const active = all.filter((link) => link.status === "active");
  return {
    links: active.slice((page - 1) * limit, page * limit).map(toWireLink),
    total: active.length,
    page,
    limit,
  };
}

/**
 * Links an active client ID of the orchestrator's own account. Linking a linked one answers the
 * link as it is; a revoked link becomes active again.
 */
export async function linkOrchestratorClientId(
  ctx: DomainContext,
  { principal, body }: OperationInput<"linkOrchestratorClientId">,
): Promise<Schemas["OrchestratorClientIdLinked"]> {
  const orchestrator = callingOrchestrator(principal);
  return ctx.store.withTransaction(async (tx) => {
    const clientId = await findOwnRecord(tx.clientIds.first("publicValue", body.clientId), principal);
    if (!clientId) {
      throw invalidField("/body/clientId", `no client ID of your account has the value ${body.clientId}`);
    }
    if (clientId.status !== "active") {
      throw invalidField(
        "/body/clientId",
        `the client ID is ${clientId.status}; only an active one can be linked`,
      );
    }
    const existing = await tx.orchestratorClientIdLinks.first("orchestratorAndClientId", {
      orchestratorId: orchestrator.id,
      clientIdId: clientId.id,
    });
    if (existing?.status === "active") return { link: toWireLink(existing), alreadyLinked: true };
    const at = ctx.clock.now().toISOString();
    const link: OrchestratorClientIdLinkRecord = existing
      ? { ...existing, status: "active", consentedAt: at, revokedAt: null, updatedAt: at }
      : {
          id: newUlid(ctx.clock.now()),
          accountId: orchestrator.accountId,
          orchestratorId: orchestrator.id,
          clientIdId: clientId.id,
          clientId: clientId.clientId,
          status: "active",
          consentedAt: at,
          revokedAt: null,
          createdAt: at,
          updatedAt: at,
        };
    await tx.orchestratorClientIdLinks.put(link);
    return { link: toWireLink(link), alreadyLinked: false };
  });
}

/** Revokes the link of a client ID (by its public value) with the calling orchestrator. */
export async function unlinkOrchestratorClientId(
  ctx: DomainContext,
  { principal, path }: OperationInput<"unlinkOrchestratorClientId">,
): Promise<Schemas["OrchestratorClientIdUnlinked"]> {
  const orchestrator = callingOrchestrator(principal);
  return ctx.store.withTransaction(async (tx) => {
    const links = (await tx.orchestratorClientIdLinks.find("orchestrator", orchestrator.id)).items;
    const link = links.find((candidate) => candidate.clientId === path.clientId);
    if (!link) throw notFound(`No client ID linked to this orchestrator has the value ${path.clientId}.`);
    if (link.status === "revoked") return { link: toWireLink(link), wasAlreadyRevoked: true };
    const at = ctx.clock.now().toISOString();
    const revoked: OrchestratorClientIdLinkRecord = {
      ...link,
      status: "revoked",
      revokedAt: at,
      updatedAt: at,
    };
    await tx.orchestratorClientIdLinks.put(revoked);
    return { link: toWireLink(revoked), wasAlreadyRevoked: false };
  });
}
