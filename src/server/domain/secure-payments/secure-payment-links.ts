import { newUlid } from "../../ids.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import { callerClientScope, type Principal } from "../shared/principal.ts";
import { createRequestRecord, type PlannedRequest, storeNewRequest } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** The hosted page URL with the token as its `token` query parameter. */
export function securePaymentUrl(pageUrl: string, token: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * What `securePaymentUrl` answers for the server's page URL, without parsing it for every link:
 * the URL up to the token when the token comes last, as it does for a page URL without a
 * fragment or a `token` of its own. Alphanumeric tokens (ULIDs) need no escaping, so appending
 * one gives what the URL API gives.
 */
let lastPage: { pageUrl: string; prefix: string | undefined } | undefined;

function pageUrlPrefix(pageUrl: string): string | undefined {
  if (lastPage?.pageUrl !== pageUrl) {
    const sample = securePaymentUrl(pageUrl, "0");
    lastPage = { pageUrl, prefix: sample.endsWith("token=0") ? sample.slice(0, -1) : undefined };
  }
  return lastPage.prefix;
}

/** `securePaymentUrl(pageUrl, token)`, built by appending the token to the page URL's prefix where it can be. */
export function securePaymentLinkUrl(pageUrl: string, token: string): string {
  const prefix = pageUrlPrefix(pageUrl);
  return prefix !== undefined && /^[0-9A-Za-z]+$/.test(token)
    ? prefix + token
    : securePaymentUrl(pageUrl, token);
}

/** What a link keeps besides its requests. */
export type SecurePaymentLinkDetails = Pick<
  SecurePaymentRecord,
  "reference" | "redirectUrl" | "redirectLabel" | "payerIdentifier" | "kind" | "payout" | "multicall"
>;

/**
 * Creates the planned requests and one payment link for them, valid for the configured
 * lifetime. `planLink` runs in the transaction that stores the link, so what it reads (a payee
 * destination) cannot change in between.
 */
export async function storeSecurePaymentLink(
  ctx: DomainContext,
  principal: Principal,
  planLink: (tx: StoreOperations) => Promise<{ network: string; plans: PlannedRequest[] }>,
  details: SecurePaymentLinkDetails,
): Promise<Schemas["SecurePayment"]> {
  const now = ctx.clock.now();
  const token = newUlid(now);
  const securePayment = await ctx.store.withTransaction(async (tx) => {
    const { network, plans } = await planLink(tx);
    const records = plans.map((plan) =>
      createRequestRecord(plan, {
        accountId: principal.accountId,
        now,
        securePaymentToken: token,
        ...callerClientScope(principal),
        ...(details.kind === "incoming" ? {} : { flow: "outgoing" as const }),
      }),
    );
    const createdAt = now.toISOString();
    for (const record of records) {
      await storeNewRequest(tx, record, { securePaymentToken: token }, createdAt);
    }
    const link = { token, requestIds: records.map((record) => record.requestId), network };
    return putNewSecurePayment(ctx, tx, principal, link, details);
  });
  return toCreatedLink(ctx, securePayment);
}

/** Stores a pending link over stored requests, valid for the configured lifetime, and announces it. */
export async function putNewSecurePayment(
  ctx: DomainContext,
  tx: StoreOperations,
  principal: Principal,
  link: Pick<SecurePaymentRecord, "token" | "requestIds" | "network">,
  details: SecurePaymentLinkDetails,
): Promise<SecurePaymentRecord> {
  const now = ctx.clock.now();
  // Formatting a date is a microsecond's work: the link's three times of creation share one.
  const createdAt = now.toISOString();
  const created: SecurePaymentRecord = {
    accountId: principal.accountId,
    ...link,
    status: "pending",
    ...details,
    createdAt,
    expiresAt: new Date(now.getTime() + ctx.securePaymentLifetimeSeconds * 1000).toISOString(),
    updatedAt: createdAt,
  };
  await tx.securePayments.put(created);
  await tx.appendEvent({
    type: "secure_payment.created",
    occurredAt: createdAt,
    data: { token: created.token, requestIds: created.requestIds },
  });
  return created;
}

/** The answer to the creation of a link. */
export function toCreatedLink(ctx: DomainContext, record: SecurePaymentRecord): Schemas["SecurePayment"] {
  return {
    requestIds: record.requestIds,
    securePaymentUrl: securePaymentLinkUrl(ctx.securePaymentPageUrl(), record.token),
    token: record.token,
  };
}
