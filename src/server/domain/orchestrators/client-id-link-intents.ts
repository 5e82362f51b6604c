import { findTokenByAddress, type NetworkName } from "../../../chain/index.ts";
import { loadAccountClock } from "../../account-clock.ts";
import { newClientIdValue, newUlid } from "../../ids.ts";
import { invalidField, invalidState, notFound, ProblemError } from "../../problems.ts";
import type {
  ClientIdLinkIntentRecord,
  ClientIdRecord,
  OrchestratorClientIdLinkRecord,
  PayeeDestinationRecord,
} from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { sessionWallet } from "../shared/wallet-session.ts";
import { appendWebhookEvent } from "../shared/webhook-events.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { orchestratorParent } from "./branding.ts";
import { toWireBranding, toWireLink } from "./orchestrator-wire.ts";

// The Auth API's link intent operations. The token is the invitation an orchestrator handed to
// its recipient, whose account is not the orchestrator's: any signed-in caller holding it may
// check it, and a signed-in wallet complete it, once.

/**
 * The intent of a token that can still be completed, by the clock of the orchestrator's account
 * (which set its expiry): 404 for an unknown token, 403 for a used or expired one, each with its
 * `code`.
 */
async function loadOpenIntent(
  ctx: DomainContext,
  tx: Pick<StoreOperations, "clientIdLinkIntents" | "sandboxClocks">,
  token: string,
): Promise<{ intent: ClientIdLinkIntentRecord; now: Date }> {
  const intent = await tx.clientIdLinkIntents.first("accessToken", token);
  if (!intent) {
    throw new ProblemError("notFound", "No link intent has this token.", { code: "LINK_INTENT_NOT_FOUND" });
  }
  if (intent.used) {
    throw new ProblemError(
      "forbidden",
      "This link intent was already completed; ask the orchestrator for a new one.",
      { code: "LINK_INTENT_USED" },
    );
  }
  const now = (await loadAccountClock(tx, ctx.baseClock, intent.accountId)).now();
  if (now.getTime() >= Date.parse(intent.expiresAt)) {
    throw new ProblemError(
      "forbidden",
      `This link intent expired at ${intent.expiresAt}; ask the orchestrator for a new one.`,
      { code: "LINK_INTENT_EXPIRED" },
    );
  }
  return { intent, now };
}

/** Whether a link intent can be completed, with the name it gives and the orchestrator's branding. */
export async function checkClientIdLinkIntent(
  ctx: DomainContext,
  { path }: OperationInput<"checkClientIdLinkIntent">,
): Promise<Schemas["ClientIdLinkIntentCheck"]> {
  const { intent } = await loadOpenIntent(ctx, ctx.store, path.token);
  const branding = await ctx.store.orchestratorBrandings.first("parent", {
    orchestratorId: intent.orchestratorId,
    parent: orchestratorParent,
  });
  return {
    valid: true,
    clientIdName: intent.clientIdName,
    ...(branding ? { branding: toWireBranding(branding) } : {}),
  };
}

/** The link's screening: the orchestrator's plan when the intent has one, else the recipient's choice. */
function screeningOf(
  intent: ClientIdLinkIntentRecord,
  body: OperationInput<"completeClientIdLinkIntent">["body"],
): Schemas["ClientIdLinkKyt"] {
  if (intent.kyt) {
    const providers = intent.kyt.providers.map((entry, index) => ({
      ...entry,
      priority: entry.priority ?? index,
    }));
    return { control: "orchestrator", providers };
  }
  const provider = body?.kyt?.provider;
  if (provider === undefined) {
    throw invalidField(
      "/body/kyt",
      "is required: the intent has no screening plan of the orchestrator; send kyt.provider (hypernative, merklescience, or null for none)",
    );
  }
  return { control: "recipient", providers: provider === null ? [] : [{ provider, priority: 0 }] };
}

/** The body of `client_id.linked`, as the orchestrator's webhooks receive it. */
function buildLinkedPayload(
  intent: ClientIdLinkIntentRecord,
  link: OrchestratorClientIdLinkRecord,
  destination: PayeeDestinationRecord,
  at: string,
): Schemas["ClientIdLinkedEvent"] {
  const token = findTokenByAddress(destination.network as NetworkName, destination.tokenAddress);
  return {
    event: "client_id.linked",
    clientId: link.clientId,
    orchestratorId: link.orchestratorId,
    linkId: link.id,
    intentId: intent.id,
    externalId: intent.externalId,
    destinationId: destination.destinationId,
    destinationWalletAddress: destination.walletAddress.toLowerCase(),
    chain: destination.network,
    currency: token?.symbol ?? destination.tokenAddress,
    timestamp: at,
  };
}

/**
 * Completes a link intent with the signed-in wallet: a client ID of the wallet's account, bound
 * to its active payee destination and linked to the intent's orchestrator; the intent used; and
 * `client_id.linked` queued for the orchestrator, all in one change.
 */
export async function completeClientIdLinkIntent(
  ctx: DomainContext,
  { principal, path, body }: OperationInput<"completeClientIdLinkIntent">,
): Promise<Schemas["ClientIdLinkIntentCompleted"]> {
  return ctx.store.withTransaction(async (tx) => {
    const { intent, now } = await loadOpenIntent(ctx, tx, path.token);
    const wallet = await sessionWallet(tx, principal);
    const kyt = screeningOf(intent, body);
    const destination = await tx.payeeDestinations.first("activeWallet", {
      accountId: principal.accountId,
      walletAddress: wallet,
    });
    if (!destination) {
      throw invalidState(
        "The signed-in wallet has no active payee destination: register one with POST /v1/payee-destination, then complete the intent.",
      );
    }
    const at = now.toISOString();
    const clientId: ClientIdRecord = {
      id: newUlid(now),
      accountId: principal.accountId,
      clientId: newClientIdValue(),
      label: intent.clientIdName,
      allowedDomains: [...intent.allowedDomains],
      feePercentage: null,
      feeAddress: null,
      operatorWalletAddress: null,
      defaultPreApprovalExpiry: null,
      defaultAuthorizationExpiry: null,
      status: "active",
      createdAt: at,
      updatedAt: at,
      lastUsedAt: null,
      payeeDestinationId: destination.destinationId,
    };
    const link: OrchestratorClientIdLinkRecord = {
      id: newUlid(now),
      accountId: intent.accountId,
      orchestratorId: intent.orchestratorId,
      clientIdId: clientId.id,
      clientId: clientId.clientId,
      status: "active",
      consentedAt: at,
      revokedAt: null,
      createdAt: at,
      updatedAt: at,
      kyt,
    };
    await tx.clientIds.put(clientId);
    await tx.orchestratorClientIdLinks.put(link);
    await tx.clientIdLinkIntents.put({ ...intent, used: true, updatedAt: at });
    await appendWebhookEvent(tx, {
      event: "client_id.linked",
      accountId: intent.accountId,
      requestId: null,
      occurredAt: at,
      payload: buildLinkedPayload(intent, link, destination, at),
    });
    const { accountId: _account, ...wireClientId } = clientId;
    return { ok: true, clientId: wireClientId, link: toWireLink(link) };
  });
}

/**
 * Changes the screening of a client ID's link where its recipient chose it. The client ID is the
 * caller's own (another account's answers 404 as unknown); a link whose screening is the
 * orchestrator's, or one made without an intent, cannot be changed here.
 */
export async function updateClientIdLinkKyt(
  ctx: DomainContext,
  { principal, path, body }: OperationInput<"updateClientIdLinkKyt">,
): Promise<Schemas["OrchestratorClientIdLink"]> {
  return ctx.store.withTransaction(async (tx) => {
    const clientId = await tx.clientIds.get(path.clientIdId);
    if (clientId?.accountId !== principal.accountId) {
      throw notFound(`No client ID of your account has the id ${path.clientIdId}.`);
    }
    const links = (await tx.orchestratorClientIdLinks.find("activeClientId", clientId.id)).items;
    if (links.length === 0) throw notFound(`The client ID ${clientId.id} is not linked to an orchestrator.`);
    const link = links.find((candidate) => candidate.kyt?.control === "recipient");
    if (!link) {
      throw invalidState(
        `The screening of the client ID ${clientId.id} is set by its orchestrator (its link intent's plan, or a link it made itself): only the orchestrator can change it.`,
      );
    }
    const providers = body.provider === null ? [] : [{ provider: body.provider, priority: 0 }];
    const updated: OrchestratorClientIdLinkRecord = {
      ...link,
      kyt: { control: "recipient", providers },
      updatedAt: ctx.clock.now().toISOString(),
    };
    await tx.orchestratorClientIdLinks.put(updated);
    return toWireLink(updated);
  });
}
