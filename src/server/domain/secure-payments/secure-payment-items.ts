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

/**
 * The items of a secure payment, every one in the payee form that request creation takes. A
 * destination-form item names an active payee destination of the caller's account, which gives
 * the payee and the token (both the invoice and the payment currency); an item with neither form
 * names no payee, which the real service takes from the client ID's bound destination and payreq
 * cannot. 400 naming each item's `destinationId` that cannot be used.
 */
export async function resolveSecurePaymentItems(
  store: StoreOperations,
  principal: Principal,
  items: SecurePaymentItem[],
): Promise<PaymentRequestItem[]> {
  const issues: ValidationIssue[] = [];
  const resolved: PaymentRequestItem[] = [];
  for (const [index, item] of items.entries()) {
    const path = `/body/requests/${index}/destinationId`;
    if (item.destinationId !== undefined) {
      const found = await destinationIssue(store, principal, item.destinationId);
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
          "is required here: payreq binds no payee destination to client IDs, so send destinationId, or payee, invoiceCurrency and paymentCurrency",
      });
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
  return resolved;
}
