import type { Address } from "viem";
import { ApiError, toApiError } from "../client/api-error.ts";
import { normaliseBatchPayout } from "../client/batch-payout.ts";
import { createPayreqClient, type PayreqClient } from "../client/create-client.ts";
import { PayreqError } from "../wire/payreq-error.ts";
import type { SecurePaymentDetails } from "./expected-link.ts";

/** What the token check answered, as the page shows it. */
export type TokenCheck =
  | { state: "payable"; details: SecurePaymentDetails }
  | { state: "not-payable"; detail: string }
  | { state: "paid"; detail: string }
  | { state: "in-progress"; detail: string }
  | { state: "not-found"; detail: string }
  | { state: "error"; detail: string; requestId: string | undefined };

/** The page's API client: same origin, authenticated by the public client ID the server injected. */
export function createPageClient(origin: string, clientId: string): PayreqClient {
  return createPayreqClient({ baseUrl: origin, clientId, origin, retry: true });
}

/** The payer-facing detail of a failed call, with the request ID to quote. */
function describeFailure(error: unknown): { detail: string; requestId: string | undefined } {
  if (error instanceof ApiError) {
    return {
      detail: error.detail ?? error.title ?? `The server answered ${error.status}.`,
      requestId: error.requestId,
    };
  }
  return { detail: "The server could not be reached. Check your connection.", requestId: undefined };
}

/** The token check, `GET /v2/secure-payments/{token}`: 200, 403, 409, 423, 404 (and 400) or anything else. */
export async function checkToken(client: PayreqClient, token: string): Promise<TokenCheck> {
  try {
    const result = await client.GET("/v2/secure-payments/{token}", { params: { path: { token } } });
    if (result.data !== undefined) return { state: "payable", details: result.data };
    const error = toApiError(result);
    const detail = error.detail ?? "";
    if (error.status === 403) return { state: "not-payable", detail };
    if (error.status === 409) return { state: "paid", detail };
    if (error.status === 423) return { state: "in-progress", detail };
    if (error.status === 404 || error.status === 400) return { state: "not-found", detail };
    return { state: "error", ...describeFailure(error) };
  } catch (error) {
    return { state: "error", ...describeFailure(error) };
  }
}

/** The server could not prepare the transactions; `detail` says why, in the server's words. */
export class TransactionsUnavailableError extends Error {
  override name = "TransactionsUnavailableError";
  constructor(
    readonly detail: string,
    readonly requestId: string | undefined,
  ) {
    super(detail);
  }
}

/**
 * The transactions that pay the link of `token` from `wallet`, in sending order: the link's
 * calldata (`GET /v2/secure-payments/{token}/pay`), the one request's transactions or, for a
 * batch link, its batch payment (approvals first). The page asks by token, never by request id:
 * its client ID may belong to another account than the link, and only the token reads are
 * open to any caller.
 */
export async function fetchTransactions(
  client: PayreqClient,
  token: string,
  wallet: Address,
): Promise<unknown[]> {
  try {
    const result = await client.GET("/v2/secure-payments/{token}/pay", {
      params: { path: { token }, query: { wallet } },
    });
    if (result.data === undefined) throw toApiError(result);
    if ("transactions" in result.data) return result.data.transactions;
    const batch = normaliseBatchPayout(result.data);
    return [...batch.approvals, ...batch.payments];
  } catch (error) {
    if (error instanceof TransactionsUnavailableError) throw error;
    // A malformed answer (not an error answer) is described by the client's own message.
    if (error instanceof PayreqError && !(error instanceof ApiError)) {
      throw new TransactionsUnavailableError(error.shortMessage, undefined);
    }
    const { detail, requestId } = describeFailure(error);
    throw new TransactionsUnavailableError(detail, requestId);
  }
}
