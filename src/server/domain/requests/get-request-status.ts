import { findToken } from "../../../chain/index.ts";
import type { RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { isAtParWith } from "../shared/conversion.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequest } from "../shared/own-records.ts";
import { paymentTokenOf, receivedPayments, remainingAmount } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** A request as GET /v2/request/{requestId} answers it, amounts in its payment currency. */
export function toRequestDetails(request: RequestRecord): Schemas["RequestDetails"] {
  const token = paymentTokenOf(request);
  const format = (units: bigint | string) => formatBaseUnits(units, token.decimals);
  const received = receivedPayments(request);
  const paid = request.status === "paid";
  const latest = received.at(-1);
  // Only the dollar stablecoins are worth their amount in dollars.
  const inDollars = isAtParWith("USD", token);
  return {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    hasBeenPaid: paid,
    status: request.status,
    isListening: !paid,
    txHash: latest?.txHash ?? null,
    payments: received.map((payment) => {
      // A bridged payment is recorded by the bridge's transaction, on the request's network.
      const bridged = payment.sourceNetwork !== null && payment.sourceNetwork !== request.network;
      return {
        id: payment.id,
        amount: format(payment.amount),
        sourceNetwork: payment.sourceNetwork ?? request.network,
        destinationNetwork: request.network,
        sourceTxHash: bridged ? null : payment.txHash,
        destinationTxHash: payment.txHash,
        payerAddress: payment.payer,
        timestamp: payment.recordedAt,
        type: bridged ? "crosschain" : "direct",
        currency: findToken(request.invoiceCurrency)?.symbol ?? request.invoiceCurrency,
        paymentCurrency: token.symbol,
        txHash: payment.txHash,
      };
    }),
    // The service fills it for partly paid requests only; the sandbox always does, so that the
    // amount due can be read before anything is paid.
    conversionBreakdown: {
      paidAmount: format(request.amountPaid),
      remainingAmount: format(remainingAmount(request)),
      payments: received.map((payment) => ({
        amount: format(payment.amount),
        timestamp: payment.recordedAt,
      })),
    },
    amountInUsd: inDollars ? format(request.expectedAmount) : null,
    // Left out rather than null when there is none, as the service answers: the schema it
    // publishes types them as an object and strings, and clients checking answers refuse null.
    ...(request.recurrence ? { recurrence: request.recurrence } : {}),
    isRecurrenceStopped: request.isRecurrenceStopped ?? false,
    ...(request.originalRequestId ? { originalRequestId: request.originalRequestId } : {}),
    ...(request.originalRequestPaymentReference
      ? { originalRequestPaymentReference: request.originalRequestPaymentReference }
      : {}),
    isCryptoToFiatAvailable: request.isCryptoToFiatAvailable ?? false,
    customerInfo: request.customerInfo ?? null,
    reference: request.reference ?? null,
    // The sandbox takes no fee on recorded payments.
    fees: [],
  };
}

/** One of the caller's requests, however it was created, as it stands now. */
export async function getRequestStatus(
  ctx: DomainContext,
  { principal, path: { requestId } }: OperationInput<"getRequestStatus">,
): Promise<Schemas["RequestDetails"]> {
  return toRequestDetails(await loadOwnRequest(ctx.store, principal, requestId));
}
