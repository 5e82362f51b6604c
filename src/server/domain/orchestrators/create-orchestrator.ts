import {
  hashOrchestratorKey,
  newOrchestratorKey,
  orchestratorKeyPrefix,
} from "../../auth/orchestrator-keys.ts";
import { newUlid } from "../../ids.ts";
import type { OrchestratorRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireOrchestrator, toWireOrchestratorKey } from "./orchestrator-wire.ts";

/** Creates an orchestrator of the caller's account; its key is answered here once, and kept only as a hash. */
export async function createOrchestrator(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createOrchestrator">,
): Promise<Schemas["OrchestratorCreated"]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const rawKey = newOrchestratorKey();
  const record: OrchestratorRecord = {
    id: newUlid(now),
    accountId: principal.accountId,
    name: body.orchestratorName,
    supportEmail: body.orchestratorContactEmail ?? null,
    status: "active",
    keyId: newUlid(now),
    keyPrefix: orchestratorKeyPrefix(rawKey),
    keyHash: hashOrchestratorKey(rawKey),
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.withTransaction((tx) => tx.orchestrators.put(record));
  return { orchestrator: toWireOrchestrator(record), key: toWireOrchestratorKey(record), rawKey };
}
