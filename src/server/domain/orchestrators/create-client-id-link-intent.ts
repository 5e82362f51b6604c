import { randomBytes } from "node:crypto";
import { newUlid } from "../../ids.ts";
import type { ClientIdLinkIntentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callingOrchestrator } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireIntent } from "./orchestrator-wire.ts";

/** How long an intent's token is accepted, as the service sets it. */
const intentLifetimeMs = 7 * 24 * 60 * 60 * 1000;

/** The page the recipient of an intent opens; the token is its `token` query parameter. */
const onboardingPage = "https://link.request.network/";

/**
 * Creates an invitation to link a new client ID to the calling orchestrator. The intent is kept
 * in its own table, found by its token, for the Auth API's intent operations to complete.
 */
export async function createClientIdLinkIntent(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createClientIdLinkIntent">,
): Promise<Schemas["ClientIdLinkIntentCreated"]> {
  const orchestrator = callingOrchestrator(principal);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const record: ClientIdLinkIntentRecord = {
    id: newUlid(now),
    accountId: orchestrator.accountId,
    orchestratorId: orchestrator.id,
    accessToken: `lit_${randomBytes(16).toString("hex")}`,
    clientIdName: body.clientIdName,
    allowedDomains: [...new Set(body.domains ?? [])],
    externalId: body.externalId ?? null,
    kyt: body.kyt
      ? {
          providers: body.kyt.providers.map(({ provider, policyId }, priority) => ({
            provider,
            ...(policyId === undefined ? {} : { policyId }),
            priority,
          })),
        }
      : null,
    used: false,
    expiresAt: new Date(now.getTime() + intentLifetimeMs).toISOString(),
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.withTransaction((tx) => tx.clientIdLinkIntents.put(record));
  const url = new URL(onboardingPage);
  url.searchParams.set("token", record.accessToken);
  return { url: url.toString(), intent: toWireIntent(record) };
}
