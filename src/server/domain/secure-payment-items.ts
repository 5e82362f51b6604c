import { chainIds, findTokenByAddress, networkNames, parsePayeeDestinationId } from "../../chain/index.ts";
import { type ValidationIssue, validationFailed } from "../problems.ts";
import type { Schemas } from "./wire-types.ts";

type SecurePaymentItem = Schemas["SecurePaymentRequestItem"];
type PaymentRequestItem = Schemas["PaymentRequestItem"];

/** The network a chain id stands for, among those the sandbox supports. */
function networkOfChainId(chainId: number) {
  return networkNames.find((network) => chainIds[network] === chainId);
}

/**
 * Reads one destination-form item as a payee-form item: the destination's wallet is the payee, and
 * the amount is in the destination's token, which is both the invoice and the payment currency.
 */
function fromDestination(destinationId: string, amount: string, at: string, issues: ValidationIssue[]) {
  const destination = parsePayeeDestinationId(destinationId);
  const network = destination && networkOfChainId(destination.chainId);
  if (!destination || !network) {
    issues.push({
      path: `${at}/destinationId`,
      message: `names chain ${destination?.chainId ?? "?"}, which the sandbox does not support (it supports ${networkNames.map((name) => `${name} ${chainIds[name]}`).join(", ")})`,
    });
    return undefined;
  }
  const token = findTokenByAddress(network, destination.tokenAddress);
  if (!token) {
    issues.push({
      path: `${at}/destinationId`,
      message: `names token ${destination.tokenAddress}, which is not a currency the sandbox knows on ${network} (see GET /v1/currencies?network=${network})`,
    });
    return undefined;
  }
  return { payee: destination.walletAddress, amount, invoiceCurrency: token.id, paymentCurrency: token.id };
}

/**
 * The items of a secure payment, every one in the payee form that request creation takes. The
 * destination form is read from `destinationId`; an item with neither form names no payee, which
 * the real service takes from the client ID's bound destination and the sandbox cannot.
 */
export function resolveSecurePaymentItems(items: SecurePaymentItem[]): PaymentRequestItem[] {
  const issues: ValidationIssue[] = [];
  const resolved: PaymentRequestItem[] = [];
  items.forEach((item, index) => {
    const at = `/body/requests/${index}`;
    if (item.destinationId !== undefined) {
      const read = fromDestination(item.destinationId, item.amount, at, issues);
      if (read) resolved.push(read);
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
        path: `${at}/destinationId`,
        message:
          "is required here: the sandbox binds no payee destination to client IDs, so send destinationId, or payee, invoiceCurrency and paymentCurrency",
      });
    }
  });
  if (issues.length > 0) throw validationFailed(issues);
  return resolved;
}
