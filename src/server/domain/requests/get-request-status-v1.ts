import type { RequestRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequestByReference } from "../shared/own-records.ts";
import { receivedPayments } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** A request as the v1 status read answers it: the amount as asked, and each payment's transactions. */
export function toRequestStatusV1(request: RequestRecord): Schemas["RequestStatusV1"] {
  const received = receivedPayments(request);
  const paid = request.status === "paid";
  return {
    hasBeenPaid: paid,
    paymentReference: request.paymentReference,
    requestId: request.requestId,
    requestAmount: request.invoiceAmount,
    isListening: !paid,
    txHash: received.at(-1)?.txHash ?? null,
    payments: received.map((payment) => {
      // A bridged payment is recorded by the bridge's transaction, on the request's network.
      const bridged = payment.sourceNetwork !== null && payment.sourceNetwork !== request.network;
      return {
        sourceTxHash: bridged ? null : payment.txHash,
        destinationTxHash: payment.txHash,
        detectionSource: "sandbox",
        note: null,
      };
    }),
  };
}

/** `GET /v1/request/{paymentReference}`: one of the caller's requests, by its payment reference. */
export async function getRequestStatusV1(
  ctx: DomainContext,
  { principal, path: { paymentReference } }: OperationInput<"getRequestStatusV1">,
): Promise<Schemas["RequestStatusV1"]> {
  return toRequestStatusV1(await loadOwnRequestByReference(ctx.store, principal, paymentReference));
}
