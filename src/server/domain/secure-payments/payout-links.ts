import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { findOwnSecurePayment } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import { intentInProgress } from "./payable-secure-payment.ts";

/** Why the link of `token` (the caller's, if any) cannot be joined into a batch or a multicall link, or undefined when it can. */
function joinIssue(record: SecurePaymentRecord | undefined, now: Date) {
  if (!record) return "is not a payout link of your account";
  if (record.kind === "multicall") return "is a multicall payout link; name the single payout links instead";
  if (record.kind !== "payout") return "is a link for incoming payments; only payout links can be joined";
  if (record.requestIds.length !== 1) return "is already a batch link; join the single payout links instead";
  const status = effectiveStatus(record, now);
  if (status !== "pending") return `is ${status}; only pending payout links can be joined`;
  if (intentInProgress(record, now)) return "has a payment in progress; wait until it is recorded";
  return undefined;
}

/**
 * The links of `tokens` (the list at `listPath`), each one a pending single payout link of the
 * caller, once; with `oneNetwork`, all on one network. 400 naming each token that is not.
 */
export async function requirePayoutLinks(
  tx: StoreOperations,
  principal: Principal,
  tokens: string[],
  options: { listPath: string; oneNetwork: boolean },
  now: Date,
): Promise<SecurePaymentRecord[]> {
  const issues: ValidationIssue[] = [];
  const links: SecurePaymentRecord[] = [];
  for (const [index, token] of tokens.entries()) {
    const path = `${options.listPath}/${index}`;
    const first = tokens.indexOf(token);
    if (first !== index) {
      issues.push({ path, message: `names the same link as ${options.listPath}/${first}` });
      continue;
    }
    const record = await findOwnSecurePayment(tx, principal, token);
    const issue = joinIssue(record, now);
    if (issue !== undefined || !record) {
      issues.push({ path, message: issue ?? "is not a payout link of your account" });
      continue;
    }
    const [firstLink] = links;
    if (options.oneNetwork && firstLink && record.network !== firstLink.network) {
      const at = tokens.indexOf(firstLink.token);
      issues.push({
        path,
        message: `pays on ${record.network}, but ${options.listPath}/${at} pays on ${firstLink.network}: a batch pays on one network`,
      });
      continue;
    }
    links.push(record);
  }
  if (issues.length > 0) throw validationFailed(issues);
  return links;
}
