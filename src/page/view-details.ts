import { chainIds, isNetworkName } from "../chain/index.ts";
import { address, h, type PageElement } from "./dom.ts";
import type { ExpectedLink, ExpectedPayment, SecurePaymentDetails } from "./expected-link.ts";
import { networkLabel } from "./page-chains.ts";
import { formatAmount } from "./verify-common.ts";

/** The totals to pay, amounts and fees included, one per currency: `52.5 USDC`. */
export function totalsOf(link: ExpectedLink): string {
  const totals = new Map<string, { payment: ExpectedPayment; units: bigint }>();
  for (const payment of link.payments) {
    const total = totals.get(payment.token.id) ?? { payment, units: 0n };
    total.units += payment.amount + payment.feeAmount;
    totals.set(payment.token.id, total);
  }
  return [...totals.values()].map((total) => formatAmount(total.units, total.payment.token)).join(" and ");
}

function feeOf(payment: ExpectedPayment, link: ExpectedLink): (PageElement | string)[] {
  if (payment.feeAmount === 0n) return ["None"];
  return [`${formatAmount(payment.feeAmount, payment.token)}, paid to `, address(link.feeAddress ?? "")];
}

function networkOf(network: string): string {
  return isNetworkName(network) ? `${networkLabel(network)} (chain ID ${chainIds[network]})` : network;
}

function expiryOf(iso: string | undefined): PageElement | string {
  if (!iso) return "Not stated";
  const date = new Date(iso);
  const shown = new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return h("time", { datetime: iso }, shown.format(date));
}

const row = (term: string, ...value: (PageElement | string)[]) => [h("dt", {}, term), h("dd", {}, ...value)];

function singleRows(details: SecurePaymentDetails, link: ExpectedLink | undefined): PageElement[] {
  if (details.paymentType !== "single") return [];
  const payment = link?.payments[0];
  if (!link || !payment) {
    return [
      ...row("Pay to", address(details.payee ?? "unknown")),
      ...row("Amount", `${details.amount} ${details.paymentCurrency}`),
    ];
  }
  return [
    ...row("Pay to", address(payment.payee)),
    ...row("Amount", formatAmount(payment.amount, payment.token)),
    ...row("Fee", ...feeOf(payment, link)),
    ...row("Total", h("strong", {}, totalsOf(link))),
    ...row("Payment reference", h("code", {}, payment.paymentReference)),
  ];
}

function batchTable(details: SecurePaymentDetails, link: ExpectedLink | undefined): PageElement | null {
  if (details.paymentType !== "batch") return null;
  const payees = details.payees ?? [];
  const rows = payees.map((payee, index) => {
    const payment = link?.payments[index];
    return h(
      "tr",
      {},
      h("th", { scope: "row" }, String(index + 1)),
      h("td", {}, address(payee)),
      h(
        "td",
        {},
        payment
          ? formatAmount(payment.amount, payment.token)
          : `${details.amounts?.[index]} ${details.paymentCurrencies?.[index]}`,
      ),
      h(
        "td",
        {},
        payment && payment.feeAmount > 0n ? formatAmount(payment.feeAmount, payment.token) : "None",
      ),
      h("td", {}, h("code", {}, payment?.paymentReference ?? "Unknown")),
    );
  });
  return h(
    "div",
    { class: "table-scroll", role: "region", "aria-labelledby": "batch-caption", tabindex: "0" },
    h(
      "table",
      {},
      h("caption", { id: "batch-caption" }, `${payees.length} payments in this link`),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["#", "Pay to", "Amount", "Fee", "Payment reference"].map((title) =>
            h("th", { scope: "col" }, title),
          ),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
  );
}

/** The payment the payer reviews before connecting: payee, amount, fee, network, expiry. */
export function renderDetails(details: SecurePaymentDetails, link: ExpectedLink | undefined): PageElement {
  const batch = details.paymentType === "batch";
  const common = [
    ...(batch && link ? row("Total", h("strong", {}, totalsOf(link))) : []),
    ...(batch && link?.feeAddress ? row("Fees go to", address(link.feeAddress)) : []),
    ...row("Network", networkOf(details.network)),
    ...(details.reference ? row("Merchant reference", details.reference) : []),
    ...row("Link expires", expiryOf(details.expiresAt)),
  ];
  return h(
    "section",
    { class: "card", "aria-labelledby": "details-heading" },
    h("h2", { id: "details-heading" }, "Payment details"),
    batchTable(details, link),
    h("dl", { class: "details" }, ...singleRows(details, link), ...common),
  );
}
