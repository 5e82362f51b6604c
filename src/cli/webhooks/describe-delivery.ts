import type { ReceivedDelivery } from "./webhook-listener.ts";

/**
 * One line per delivery: time, event, request, delivery id, retry count, test flag, signature
 * verdict and the answer. A rejected delivery starts with "rejected" and ends with the reason.
 */
export function describeDelivery(delivery: ReceivedDelivery): string {
  const { signature, forward } = delivery;
  const fields = [
    delivery.receivedAt.toISOString(),
    `${signature.ok ? "" : "rejected "}${delivery.event ?? "(no event)"}`,
    `requestId=${delivery.requestId ?? "-"}`,
    `delivery=${delivery.deliveryId ?? "-"}`,
    `retry=${delivery.retryCount ?? "-"}`,
    `test=${delivery.test}`,
    `signature=${signature.ok ? "ok" : signature.reason}`,
  ];
  if (!signature.ok) {
    fields.push(`answered=${delivery.status} (${signature.message})`);
  } else if (forward?.reached) {
    fields.push(`forwarded=${forward.status}`);
  } else if (forward !== undefined) {
    fields.push(`forwarded=failed (${forward.reason})`, `answered=${delivery.status}`);
  } else {
    fields.push(`answered=${delivery.status}`);
  }
  return fields.join("  ");
}

/** The body for --json: indented when it is JSON, else the text as received. */
export function describeBody(delivery: ReceivedDelivery): string {
  if (delivery.payload !== undefined) return JSON.stringify(delivery.payload, null, 2);
  return Buffer.from(delivery.rawBody).toString("utf8");
}
