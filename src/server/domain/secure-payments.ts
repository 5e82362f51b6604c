import { getAddress } from "viem";
import { chainIds, computeFeeAmount, formatPayeeAddress, type NetworkName } from "../../chain/index.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import { invalidField, notFound, ProblemError } from "../problems.ts";
import type { RequestRecord, SecurePaymentRecord, SecurePaymentStatus } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import { intentInProgress, paymentInProgress } from "./secure-payment-intents.ts";
import { resolveSecurePaymentItems } from "./secure-payment-items.ts";
import { formatBaseUnits } from "./shared/amounts.ts";
import type { DomainContext } from "./shared/context.ts";
import { type FeeSettings, resolveFee } from "./shared/fees.ts";
import { newUlid } from "./shared/ids.ts";
import { requireBothOrNeither } from "./shared/paired-inputs.ts";
import { callerClientId, type Principal } from "./shared/principal.ts";
import {
  createRequestRecord,
  type PlannedRequest,
  paymentTokenOf,
  planRequests,
  storeNewRequest,
} from "./shared/requests.ts";
import { appendStatusChange } from "./shared/status-changes.ts";
import type { Schemas } from "./shared/wire-types.ts";

/** The status a secure payment has now: a pending one past its expiry reads as expired. */
export function effectiveStatus(record: SecurePaymentRecord, now: Date): SecurePaymentStatus {
  return record.status === "pending" && now.getTime() >= Date.parse(record.expiresAt)
    ? "expired"
    : record.status;
}

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
        clientId: callerClientId(principal),
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
  await tx.putSecurePayment(created);
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

/** Creates the requests of `body` and a payment link for them. */
export async function createSecurePayment(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createSecurePayment">,
): Promise<Schemas["SecurePayment"]> {
  // A deactivation of a destination either comes before the link is stored and refuses the item, or after.
  return storeSecurePaymentLink(
    ctx,
    principal,
    async (tx) =>
      planRequests(await resolveSecurePaymentItems(tx, principal.accountId, body.requests), "/body/requests"),
    {
      kind: "incoming",
      reference: body.reference ?? null,
      redirectUrl: body.redirectUrl ?? null,
      redirectLabel: body.redirectLabel ?? null,
      payerIdentifier: body.payerIdentifier ?? null,
    },
  );
}

/** The requests of `ids` that exist, in the order of `ids`. */
export async function loadRequests(tx: StoreOperations, ids: string[]): Promise<RequestRecord[]> {
  const found = await Promise.all(ids.map((id) => tx.getRequest(id)));
  return found.filter((request): request is RequestRecord => request !== undefined);
}

const decimalsOf = (request: RequestRecord) => paymentTokenOf(request).decimals;

/** What a request is to be paid, in its payment currency, as a human-readable decimal. */
export function paymentAmount(request: RequestRecord): string {
  return formatBaseUnits(request.expectedAmount, decimalsOf(request));
}

/** The fee the caller's pay calldata adds to a request, as a decimal in its payment currency. */
function feeAmount(request: RequestRecord, fee: FeeSettings): string {
  return formatBaseUnits(
    computeFeeAmount(BigInt(request.expectedAmount), fee.feePercentage),
    decimalsOf(request),
  );
}

const isNative = (request: RequestRecord) => paymentTokenOf(request).type === "ETH";

/** The payee destination of a request: its payee on its network, paid in its payment currency. */
function destinationOf(request: RequestRecord): Schemas["SecurePaymentDestination"] {
  const token = paymentTokenOf(request);
  const payeeAddress = formatPayeeAddress(request.payee, chainIds[token.network as NetworkName]);
  return {
    destinationId: `${payeeAddress}:${token.address}`,
    payeeAddress,
    tokenAddress: token.address,
    walletAddress: getAddress(request.payee),
    network: token.network,
  };
}

function toDetails(
  record: SecurePaymentRecord,
  requests: RequestRecord[],
  fee: FeeSettings,
): Schemas["SecurePaymentDetails"] {
  const common = {
    status: "pending" as const,
    requestIds: record.requestIds,
    network: record.network,
    reference: record.reference,
    redirectUrl: record.redirectUrl,
    redirectLabel: record.redirectLabel,
    branding: null,
    expiresAt: record.expiresAt,
    feePlan: null,
    feeAddress: fee.feeAddress ?? null,
  };
  const [only] = requests;
  if (requests.length === 1 && only) {
    return {
      paymentType: "single",
      ...common,
      payee: only.payee,
      amount: paymentAmount(only),
      paymentCurrency: only.paymentCurrency,
      isNativeCurrency: isNative(only),
      paymentReference: only.paymentReference,
      feeAmount: feeAmount(only, fee),
      destination: destinationOf(only),
    };
  }
  const native = requests.map(isNative);
  return {
    paymentType: "batch",
    ...common,
    payees: requests.map((request) => request.payee),
    amounts: requests.map(paymentAmount),
    paymentCurrencies: requests.map((request) => request.paymentCurrency),
    isNativeCurrency: native.every((value) => value === native[0]) ? (native[0] ?? false) : native,
    paymentReferences: requests.map((request) => request.paymentReference),
    feeAmounts: requests.map((request) => feeAmount(request, fee)),
    destinations: requests.map(destinationOf),
  };
}

/**
 * The secure payment of `token` while it can be paid (pending, not expired); otherwise the token
 * check's answers: 403 once expired, invalidated or compliance_failed; 409 once completed; 404
 * for an unknown token; 423 while a reported payment is executing, unless `inProgress` is
 * `allowed` (a further report of that payment).
 */
export async function requirePayableSecurePayment(
  ctx: Pick<DomainContext, "clock"> & { store: Pick<StoreOperations, "getSecurePayment"> },
  token: string,
  options: { inProgress?: "refused" | "allowed" } = {},
): Promise<SecurePaymentRecord> {
  const record = await ctx.store.getSecurePayment(token);
  if (!record) throw notFound(`No secure payment has the token ${token}.`);
  if (record.kind === "multicall") {
    throw invalidField(
      "/path/token",
      "is a multicall payout link, which payreq does not pay through this path: read it with GET /v2/secure-payments/multicall-payouts/{token}",
    );
  }
  const status = effectiveStatus(record, ctx.clock.now());
  switch (status) {
    case "completed":
      throw new ProblemError(
        "securePaymentCompleted",
        `The secure payment ${token} is already completed; there is nothing left to pay.`,
      );
    case "expired":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} expired on ${record.expiresAt}; ask the merchant for a new payment link.`,
      );
    case "invalidated":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} was invalidated by the merchant and can no longer be paid; ask the merchant for a new payment link.`,
      );
    case "compliance_failed":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} is in status compliance_failed: the payer's wallet did not pass compliance screening.`,
      );
    case "pending": {
      const intent = options.inProgress === "allowed" ? undefined : intentInProgress(record, ctx.clock.now());
      if (intent) throw paymentInProgress(record, intent);
      return record;
    }
  }
}

/**
 * The token check: 200 with the details while the link can be paid, else the answers of
 * `requirePayableSecurePayment`. The details carry the payment references and the fee the
 * caller's pay calldata will hold, so that a payer page can check the transactions before the
 * payer signs them.
 */
export async function checkSecurePaymentToken(
  ctx: DomainContext,
  { principal, path: { token }, query }: OperationInput<"checkSecurePaymentToken">,
): Promise<Schemas["SecurePaymentDetails"]> {
  requireBothOrNeither(query, "/query", ["chain", "token"]);
  if (query.eoaWallet !== undefined && query.isSafe === "true") {
    throw invalidField("/query/isSafe", "cannot be true together with eoaWallet: a Safe holds its own funds");
  }
  const record = await requirePayableSecurePayment(ctx, token);
  return toDetails(
    record,
    await loadRequests(ctx.store, record.requestIds),
    resolveFee({}, principal, "/query"),
  );
}

/** Marks a secure payment completed once every one of its requests is paid. */
export async function completeIfAllPaid(tx: StoreOperations, token: string, now: Date): Promise<void> {
  const record = await tx.getSecurePayment(token);
  if (record?.status !== "pending") return;
  const requests = await loadRequests(tx, record.requestIds);
  if (!requests.every((request) => request.status === "paid")) return;
  await tx.putSecurePayment({ ...record, status: "completed", updatedAt: now.toISOString() });
  await appendStatusChange(tx, { of: "secure_payment", token, from: "pending", to: "completed" }, now);
}
