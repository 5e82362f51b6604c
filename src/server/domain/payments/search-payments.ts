import { invalidField } from "../../problems.ts";
import type { RequestPaymentRecord, RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { findCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnRequest, findOwnRequestByReference } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { paymentTokenOf, receivedPayments } from "../shared/requests.ts";
import { currencyCode } from "../shared/webhook-events.ts";
import type { Schemas } from "../shared/wire-types.ts";

type SearchQuery = OperationInput<"searchPayments">["query"];
type PaymentType = Schemas["PaymentType"];

/** The query parameters that search; `limit` and `offset` only page. */
const searchParameters = [
  "txHash",
  "walletAddress",
  "paymentReference",
  "requestId",
  "reference",
  "type",
  "invoiceCurrency",
  "paymentCurrency",
  "fromDate",
  "toDate",
] as const satisfies readonly (keyof SearchQuery)[];

interface Found {
  request: RequestRecord;
  payment: RequestPaymentRecord;
}

function typeOf({ request, payment }: Found): PaymentType {
  if (request.recurringPaymentId) return "recurring";
  if (payment.sourceNetwork !== null && payment.sourceNetwork !== request.network) return "crosschain";
  return request.invoiceCurrency.toLowerCase() === request.paymentCurrency.toLowerCase()
    ? "direct"
    : "conversion";
}

const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** Whether a currency id names `wanted`: by id, symbol or fiat code, in any letter case. */
function currencyMatches(currencyId: string, wanted: string): boolean {
  return same(currencyId, wanted) || same(findCurrency(currencyId)?.symbol, wanted);
}

/** Every filter of the query, each true for a payment it lets through. */
function filtersOf(query: SearchQuery): ((found: Found) => boolean)[] {
  const { txHash, walletAddress, paymentReference, requestId, reference, type } = query;
  const { invoiceCurrency, paymentCurrency, fromDate, toDate } = query;
  const filters: ((found: Found) => boolean)[] = [];
  if (txHash) filters.push(({ payment }) => same(payment.txHash, txHash));
  if (walletAddress) {
    filters.push(
      ({ request, payment }) =>
        same(request.payee, walletAddress) ||
        same(payment.payer, walletAddress) ||
        same(request.payer, walletAddress),
    );
  }
  if (paymentReference) filters.push(({ request }) => same(request.paymentReference, paymentReference));
  if (requestId) filters.push(({ request }) => request.requestId === requestId);
  if (reference) filters.push(({ request }) => request.reference === reference);
  if (type) filters.push((found) => typeOf(found) === type);
  if (invoiceCurrency)
    filters.push(({ request }) => currencyMatches(request.invoiceCurrency, invoiceCurrency));
  if (paymentCurrency)
    filters.push(({ request }) => currencyMatches(request.paymentCurrency, paymentCurrency));
  if (fromDate) filters.push(({ payment }) => Date.parse(payment.recordedAt) >= Date.parse(fromDate));
  if (toDate) filters.push(({ payment }) => Date.parse(payment.recordedAt) <= Date.parse(toDate));
  return filters;
}

function toSearchItem(found: Found): Schemas["PaymentSearchItem"] {
  const { request, payment } = found;
  const token = paymentTokenOf(request);
  const bridged = typeOf(found) === "crosschain";
  return {
    id: payment.id,
    amount: formatBaseUnits(payment.amount, token.decimals),
    sourceNetwork: payment.sourceNetwork ?? request.network,
    destinationNetwork: request.network,
    // A bridged payment is recorded by the bridge's transaction, on the request's network.
    sourceTxHash: bridged ? null : payment.txHash,
    destinationTxHash: bridged ? payment.txHash : null,
    timestamp: payment.recordedAt,
    type: typeOf(found),
    currency: currencyCode(request.invoiceCurrency),
    paymentCurrency: token.symbol,
    conversionRateSource: null,
    conversionRateDestination: null,
    convertedAmountSource: null,
    convertedAmountDestination: null,
    rateProvider: null,
    fees: [],
    recurringPaymentId: request.recurringPaymentId ?? null,
    request: {
      requestId: request.requestId,
      paymentReference: request.paymentReference,
      hasBeenPaid: request.status === "paid",
      customerInfo: request.customerInfo ?? null,
      reference: request.reference ?? null,
    },
  };
}

/**
 * The caller's requests a search can match: the one a `requestId` or `paymentReference` names,
 * read by its key; otherwise every request of the account.
 */
async function candidatesOf(
  ctx: DomainContext,
  principal: Principal,
  { requestId, paymentReference }: SearchQuery,
): Promise<RequestRecord[]> {
  let named: RequestRecord | undefined;
  if (requestId) named = await findOwnRequest(ctx.store, principal, requestId);
  else if (paymentReference) named = await findOwnRequestByReference(ctx.store, principal, paymentReference);
  else return (await ctx.store.requests.find("account", principal.accountId)).items;
  return named ? [named] : [];
}

/**
 * The caller's payments matching every filter, newest first, one page at a time. At least one
 * search parameter is required, as on the service; `toDate` cannot be before `fromDate`.
 */
export async function searchPayments(
  ctx: DomainContext,
  { principal, query }: OperationInput<"searchPayments">,
): Promise<Schemas["PaymentSearchResults"]> {
  if (!searchParameters.some((name) => query[name] !== undefined)) {
    throw invalidField("/query", `needs at least one of ${searchParameters.join(", ")}`);
  }
  if (query.fromDate && query.toDate && Date.parse(query.toDate) < Date.parse(query.fromDate)) {
    throw invalidField(
      "/query/toDate",
      `must not be before fromDate (${query.fromDate}), got ${query.toDate}`,
    );
  }
  const filters = filtersOf(query);
  const matches = (await candidatesOf(ctx, principal, query))
    .flatMap((request) => receivedPayments(request).map((payment) => ({ request, payment })))
    .filter((found) => filters.every((keep) => keep(found)))
    .sort(
      (a, b) =>
        b.payment.recordedAt.localeCompare(a.payment.recordedAt) || b.payment.id.localeCompare(a.payment.id),
    );
  const limit = query.limit ?? 20;
  const offset = query.offset ?? 0;
  return {
    payments: matches.slice(offset, offset + limit).map(toSearchItem),
    pagination: { total: matches.length, limit, offset, hasMore: offset + limit < matches.length },
  };
}
