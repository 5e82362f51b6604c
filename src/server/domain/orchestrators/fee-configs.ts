import { newUlid } from "../../ids.ts";
import { invalidField, invalidState, notFound, ProblemError } from "../../problems.ts";
import type { OrchestratorFeeConfigRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import {
  callingOrchestrator,
  findLinkedClientId,
  notLinked,
  requireOrchestratorRecord,
} from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireFeeConfig } from "./orchestrator-wire.ts";

/**
 * The linked client ID named in `location`: when it is not linked, 400 naming it in a body, 404
 * in a query (as an unknown identifier answers there).
 */
async function linkedClientIdId(tx: StoreOperations, principal: Principal, value: string, location: string) {
  const linked = await findLinkedClientId(tx, principal, value);
  if (!linked) throw notLinked(location, value);
  return linked.clientId;
}

/** A fee above 0 must be paid somewhere. */
function requireRecipient(record: OrchestratorFeeConfigRecord) {
  if (record.bps > 0 && !record.evmRecipientAddress && !record.tronRecipientAddress) {
    throw invalidField(
      "/body/evmRecipientAddress",
      "a fee above 0 bps needs a recipient: send evmRecipientAddress or tronRecipientAddress",
    );
  }
}

export async function createOrchestratorFeeConfig(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createOrchestratorFeeConfig">,
): Promise<Schemas["OrchestratorFeeConfig"]> {
  const orchestrator = callingOrchestrator(principal);
  return ctx.store.withTransaction(async (tx) => {
    const clientId =
      body.clientId === undefined
        ? undefined
        : await linkedClientIdId(tx, principal, body.clientId, "/body/clientId");
    const at = ctx.clock.now().toISOString();
    const record: OrchestratorFeeConfigRecord = {
      id: newUlid(ctx.clock.now()),
      accountId: orchestrator.accountId,
      orchestratorId: orchestrator.id,
      clientIdId: clientId?.id ?? null,
      clientId: clientId?.clientId ?? null,
      flow: body.flow,
      feeBearer: body.feeBearer,
      bps: body.bps,
      usdCap: body.usdCap ?? null,
      evmRecipientAddress: body.evmRecipientAddress ?? null,
      tronRecipientAddress: body.tronRecipientAddress ?? null,
      status: "active",
      createdAt: at,
      updatedAt: at,
    };
    requireRecipient(record);
    const siblings = (await tx.orchestratorFeeConfigs.find("orchestrator", orchestrator.id)).items;
    if (
      siblings.some(
        (other) =>
          other.status === "active" && other.flow === record.flow && other.clientIdId === record.clientIdId,
      )
    ) {
      throw new ProblemError(
        "alreadyExists",
        `An active ${record.flow} fee configuration exists for this ${record.clientId ? "client ID" : "orchestrator"}: change it, or disable it first.`,
      );
    }
    await tx.orchestratorFeeConfigs.put(record);
    return toWireFeeConfig(record);
  });
}

export async function listOrchestratorFeeConfigs(
  ctx: DomainContext,
  { principal, query }: OperationInput<"listOrchestratorFeeConfigs">,
): Promise<Schemas["OrchestratorFeeConfigList"]> {
  const orchestrator = callingOrchestrator(principal);
  const clientId =
    query.clientId === undefined
      ? undefined
      : await linkedClientIdId(ctx.store, principal, query.clientId, "/query/clientId");
  const all = (await ctx.store.orchestratorFeeConfigs.find("orchestrator", orchestrator.id)).items;
  return all.filter((record) => record.clientIdId === (clientId?.id ?? null)).map(toWireFeeConfig);
}

/** The calling orchestrator's configuration `id`; `clientId`, when given, must be the override's. */
async function loadFeeConfig(
  tx: StoreOperations,
  principal: Principal,
  id: string,
  clientId: { value: string | undefined; location: string },
) {
  const record = await requireOrchestratorRecord(
    tx.orchestratorFeeConfigs.get(id),
    principal,
    `No fee configuration of this orchestrator has the id ${id}.`,
  );
  if (clientId.value !== undefined && record.clientId !== clientId.value) {
    const message = `the fee configuration ${id} is not an override of the client ID ${clientId.value}`;
    if (clientId.location.startsWith("/query/")) throw notFound(`No fee configuration matches: ${message}.`);
    throw invalidField(clientId.location, message);
  }
  return record;
}

export async function updateOrchestratorFeeConfig(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"updateOrchestratorFeeConfig">,
): Promise<Schemas["OrchestratorFeeConfig"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadFeeConfig(tx, principal, id, {
      value: body.clientId,
      location: "/body/clientId",
    });
    if (record.status === "disabled")
      throw invalidState(`The fee configuration ${id} is disabled; create another.`);
    const { clientId: _clientId, ...changes } = body;
    const updated: OrchestratorFeeConfigRecord = {
      ...record,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      updatedAt: ctx.clock.now().toISOString(),
    };
    requireRecipient(updated);
    await tx.orchestratorFeeConfigs.put(updated);
    return toWireFeeConfig(updated);
  });
}

export async function disableOrchestratorFeeConfig(
  ctx: DomainContext,
  { principal, path: { id }, query }: OperationInput<"disableOrchestratorFeeConfig">,
): Promise<Schemas["OrchestratorFeeConfig"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadFeeConfig(tx, principal, id, {
      value: query.clientId,
      location: "/query/clientId",
    });
    if (record.status === "disabled") return toWireFeeConfig(record);
    const disabled: OrchestratorFeeConfigRecord = {
      ...record,
      status: "disabled",
      updatedAt: ctx.clock.now().toISOString(),
    };
    await tx.orchestratorFeeConfigs.put(disabled);
    return toWireFeeConfig(disabled);
  });
}
