import type { RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { paymentsReceived, paymentTokenOf } from "../shared/requests.ts";
import { toCsv } from "./csv.ts";

/** The export's columns, in order; the operation's description lists the same. */
export const requestExportColumns = [
  "requestId",
  "paymentReference",
  "createdAt",
  "status",
  "reference",
  "payee",
  "payer",
  "network",
  "invoiceAmount",
  "invoiceCurrency",
  "paymentCurrency",
  "amountDue",
  "amountPaid",
  "lastPaidAt",
  "txHashes",
] as const;

function exportRow(request: RequestRecord): string[] {
  const token = paymentTokenOf(request);
  const payments = paymentsReceived(request);
  const cells: Record<(typeof requestExportColumns)[number], string> = {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    createdAt: request.createdAt,
    status: request.status,
    reference: request.reference ?? "",
    payee: request.payee,
    payer: request.payer ?? payments.findLast((payment) => payment.payer)?.payer ?? "",
    network: request.network,
    invoiceAmount: request.invoiceAmount,
    invoiceCurrency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    amountDue: formatBaseUnits(request.expectedAmount, token.decimals),
    amountPaid: formatBaseUnits(request.amountPaid, token.decimals),
    lastPaidAt: payments.at(-1)?.recordedAt ?? "",
    txHashes: payments.map((payment) => payment.txHash).join(" "),
  };
  return requestExportColumns.map((column) => cells[column]);
}

/** The caller's requests of one direction as CSV, newest first. */
export async function exportRequests(
  ctx: DomainContext,
  { principal, query }: OperationInput<"exportRequests">,
): Promise<string> {
  const requests = (await ctx.store.requests.find("account", principal.accountId)).items
    .filter((request) => (request.flow ?? "incoming") === query.flow)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.requestId.localeCompare(a.requestId));
  return toCsv(requestExportColumns, requests.map(exportRow));
}
