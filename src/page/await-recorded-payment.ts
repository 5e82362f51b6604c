import type { PayreqClient } from "../client/create-client.ts";
import { checkToken } from "./api.ts";

/** How the service's view of the link ended after the transactions were confirmed. */
export type RecordedPayment =
  | { state: "recorded" }
  | { state: "ended"; detail: string }
  | { state: "not-yet" };

/** How long the page waits for the service to record a confirmed payment before saying so. */
export const recordingWaitMs = 3 * 60_000;

/** The pause before the next token check: short at first, when a payment is usually seen, then longer. */
const pauseAfter = (attempt: number) => Math.min(1_000 * 1.5 ** attempt, 5_000);

const sleep = (ms: number) => new Promise<void>((resolve) => globalThis.setTimeout(resolve, ms));

/**
 * Asks the token check (`GET /v2/secure-payments/{token}`) until the service has recorded the
 * payment, which it answers with 409 (the link is completed), for at most `recordingWaitMs`.
 * A link that can no longer be used, or is unknown, ends the wait with the server's reason; a
 * link still payable, being processed (423) or an unanswered check is asked again.
 */
export async function awaitRecordedPayment(client: PayreqClient, token: string): Promise<RecordedPayment> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    const check = await checkToken(client, token);
    if (check.state === "paid") return { state: "recorded" };
    if (check.state === "not-payable" || check.state === "not-found") {
      return { state: "ended", detail: check.detail };
    }
    const waited = Date.now() - started;
    if (waited >= recordingWaitMs) return { state: "not-yet" };
    await sleep(Math.min(pauseAfter(attempt), recordingWaitMs - waited));
  }
}
