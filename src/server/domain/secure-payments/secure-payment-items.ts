import { findTokenByAddress, type NetworkName, parsePayeeDestinationId } from "../../../chain/index.ts";
import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { StoreOperations } from "../../store/store.ts";
import { findOwnPayeeDestination } from "../shared/own-records.ts";
import { canonicalDestinationId } from "../shared/payee-destination-ids.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";

type SecurePaymentItem = Schemas["SecurePaymentRequestItem"];
type PaymentRequestItem = Schemas["PaymentRequestItem"];

/** Why `destinationId` names no destination of the caller a payment can be made to, or what it names. */
async function destinationIssue(store: StoreOperations, principal: Principal, destinationId: string) {
  const canonical = canonicalDestinationId(destinationId);
  if (!canonical) {
    const parsed = parsePayeeDestinationId(destinationId);
    return parsed
      ? `has a checksum that is not the one of ${parsed.walletAddress} on chain ${parsed.chainId}; copy the destinationId that POST /v2/payee-destination answered`
      : "is not a payee destination id";
  }
  const record = await findOwnPayeeDestination(store, principal, canonical);
  if (!record) {
    return "is not a payee destination of your account: the payee registers it first (GET /v2/payee-destination/signing-data, then POST /v2/payee-destination)";
  }
  if (!record.active) {
    return `was deactivated at ${record.deactivatedAt}; the payee must register it again before it can be paid`;
  }
  const token = findTokenByAddress(record.network as NetworkName, record.tokenAddress);
  return token
    ? { payee: record.walletAddress, token: token.id }
    : "names a token the service no longer lists";
}

/** The payee destination the caller's client ID is bound to (set through the Auth API), or null. */
function boundDestinationOf(principal: Principal): string | null {
  return principal.kind === "clientId" ? (principal.clientId.payeeDestinationId ?? null) : null;
}

/**
 * Why an item cannot be paid through a client ID bound to `bound`: it names another destination,
 * or a payee of its own; undefined when it names that destination or none.
 */
function boundItemIssue(item: SecurePaymentItem, index: number, bound: string): ValidationIssue | undefined {
  const rule = `the client ID is bound to the payee destination ${bound}, the only one its payments may go to`;
  if (item.destinationId !== undefined) {
    return canonicalDestinationId(item.destinationId) === bound
      ? undefined
      : { path: `/body/requests/${index}/destinationId`, message: `names another destination: ${rule}` };
  }
  if (item.payee !== undefined) {
    return { path: `/body/requests/${index}/payee`, message: `cannot be sent: ${rule}; leave it out` };
  }
  return undefined;
}

/**
 * The items of a secure payment, every one in the payee form that request creation takes. A
 * destination-form item names an active payee destination of the caller's account, which gives
 * the payee and the token (both the invoice and the payment currency). A client ID bound to a
 * destination pays that destination only: an item without either form takes it, one naming
 * another destination or a payee is refused. Without a binding, an item with neither form names
 * no payee. 400 naming each item's member that cannot be used.
 */
export async function resolveSecurePaymentItems(
  store: StoreOperations,
  principal: Principal,
  items: SecurePaymentItem[],
): Promise<PaymentRequestItem[]> {
  const issues: ValidationIssue[] = [];
  const resolved: PaymentRequestItem[] = [];
  const bound = boundDestinationOf(principal);
  for (const [index, item] of items.entries()) {
    const path = `/body/requests/${index}/destinationId`;
    const boundIssue = bound === null ? undefined : boundItemIssue(item, index, bound);
    if (boundIssue) {
      issues.push(boundIssue);
      continue;
    }
    const destinationId = item.destinationId ?? bound ?? undefined;
    if (destinationId !== undefined) {
      const found = await destinationIssue(store, principal, destinationId);
      if (typeof found === "string") issues.push({ path, message: found });
      else
        resolved.push({
          payee: found.payee,
          amount: item.amount,
          invoiceCurrency: found.token,
          paymentCurrency: found.token,
        });
    } else if (
      item.payee !== undefined &&
      item.invoiceCurrency !== undefined &&
      item.paymentCurrency !== undefined
    ) {
      resolved.push({
        payee: item.payee,
        amount: item.amount,
        invoiceCurrency: item.invoiceCurrency,
        paymentCurrency: item.paymentCurrency,
      });
    } else {
      issues.push({
        path,
        message:
          "is required here: the client ID is bound to no payee destination, so send destinationId, or payee, invoiceCurrency and paymentCurrency",
      });
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
  return resolved;
}
