import { invalidField } from "../../problems.ts";
import type { RequestRecord, SecurePaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Principal } from "../shared/principal.ts";
import { receivedPayments } from "../shared/requests.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import type { Schemas } from "../shared/wire-types.ts";

type ListQuery = OperationInput<"listRequests">["query"];
type Flow = NonNullable<ListQuery["securePaymentFlow"]>;

/** The flow of a secure payment: payment links bring money in, payout links send it out. */
function flowOf(link: SecurePaymentRecord): Flow {
  return link.kind === "incoming" ? "incoming" : "outgoing";
}

/**
 * Which of the account's requests the caller may list: those paid to `walletAddress`, or, for a
 * client-ID caller that names no wallet, those created with that client ID. The API key must name
 * a wallet, as on the service.
 */
function scopeOf(principal: Principal, query: ListQuery): (request: RequestRecord) => boolean {
  const wallet = query.walletAddress?.toLowerCase();
  if (wallet !== undefined) return (request) => request.payee.toLowerCase() === wallet;
  if (principal.kind === "clientId") {
    const clientId = principal.clientId.clientId;
    return (request) => request.clientId === clientId;
  }
  throw invalidField("/query/walletAddress", "is required with the API key: name the payee wallet to list");
}

async function loadLinks(tx: StoreOperations, requests: RequestRecord[]) {
  const tokens = new Set(requests.flatMap((request) => request.securePaymentToken ?? []));
  const links = new Map<string, SecurePaymentRecord>();
  for (const token of tokens) {
    const link = await tx.securePayments.get(token);
    if (link) links.set(token, link);
  }
  return links;
}

function toListItem(
  request: RequestRecord,
  link: SecurePaymentRecord | undefined,
  now: Date,
): Schemas["RequestListItem"] {
  return {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    amount: request.invoiceAmount,
    invoiceCurrency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    hasBeenPaid: request.status === "paid",
    status: request.status,
    securePaymentStatus: link ? effectiveStatus(link, now) : null,
    reference: request.reference ?? null,
    createdAt: request.createdAt,
    txHash: receivedPayments(request).at(-1)?.txHash ?? null,
    payee: request.payee,
    payer: request.payer ?? null,
    clientId: request.clientId ?? null,
  };
}

/** The caller's requests in its scope, newest first, one page at a time. */
export async function listRequests(
  ctx: DomainContext,
  { principal, query }: OperationInput<"listRequests">,
): Promise<Schemas["RequestList"]> {
  const inScope = scopeOf(principal, query);
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const now = ctx.clock.now();
  const all = (await ctx.store.requests.find("account", principal.accountId)).items.filter(inScope);
  const links = await loadLinks(ctx.store, all);
  const linkOf = (request: RequestRecord) =>
    request.securePaymentToken ? links.get(request.securePaymentToken) : undefined;
  const flow = query.securePaymentFlow;
  const matches = all
    .filter((request) => {
      if (flow === undefined) return true;
      const link = linkOf(request);
      return link !== undefined && flowOf(link) === flow;
    })
    // Newest first; the store lists oldest first, and requests created at one instant keep that order reversed.
    .reverse()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    requests: matches
      .slice(offset, offset + limit)
      .map((request) => toListItem(request, linkOf(request), now)),
    pagination: { total: matches.length, limit, offset },
  };
}
