import { invalidField, ProblemError } from "../../problems.ts";
import type { SecurePaymentIntentRecord, SecurePaymentRecord } from "../../store/records.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";

/**
 * The reported payment that holds the link now, if any: a broadcast transaction holds it until
 * the payment is recorded; a Safe transaction alone, until its deadline passes.
 */
export function intentInProgress(
  record: SecurePaymentRecord,
  now: Date,
): SecurePaymentIntentRecord | undefined {
  const intent = record.intent;
  if (!intent) return undefined;
  const safeOnly = intent.txHash === null && intent.safePaymentDeadline !== null;
  if (safeOnly && now.getTime() >= (intent.safePaymentDeadline as number) * 1000) return undefined;
  return intent;
}

/** The token check's 423 for a link whose reported payment is still executing. */
export function paymentInProgress(
  record: SecurePaymentRecord,
  intent: SecurePaymentIntentRecord,
): ProblemError {
  const transaction = intent.txHash ?? intent.safeTxHash;
  return new ProblemError(
    "securePaymentInProgress",
    `A payment of the secure payment ${record.token} was submitted (transaction ${transaction}) and is still executing; do not pay it again.`,
  );
}

/**
 * A loaded secure payment while it can be paid at `now` (pending, not expired); otherwise the
 * token check's answers: 403 once expired, invalidated or compliance_failed; 409 once completed;
 * 423 while a reported payment is executing, unless `inProgress` is `allowed` (a further report
 * of that payment). An unknown token answered 404 when it was loaded (`own-records.ts`).
 */
export function requirePayable(
  record: SecurePaymentRecord,
  now: Date,
  options: { inProgress?: "refused" | "allowed" } = {},
): SecurePaymentRecord {
  const { token } = record;
  if (record.kind === "multicall") {
    throw invalidField(
      "/path/token",
      "is a multicall payout link, which payreq does not pay through this path: read it with GET /v2/secure-payments/multicall-payouts/{token}",
    );
  }
  const status = effectiveStatus(record, now);
  switch (status) {
    case "completed":
      throw new ProblemError(
        "securePaymentCompleted",
        `The secure payment ${token} is already completed; there is nothing left to pay.`,
      );
    case "expired":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} expired on ${record.expiresAt}; ask the merchant for a new payment link.`,
      );
    case "invalidated":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} was invalidated by the merchant and can no longer be paid; ask the merchant for a new payment link.`,
      );
    case "compliance_failed":
      throw new ProblemError(
        "securePaymentNotPayable",
        `The secure payment ${token} is in status compliance_failed: the payer's wallet did not pass compliance screening.`,
      );
    case "pending": {
      const intent = options.inProgress === "allowed" ? undefined : intentInProgress(record, now);
      if (intent) throw paymentInProgress(record, intent);
      return record;
    }
  }
}
