import { describeAllowEntryProblem } from "../webhook-delivery/target-allow-list.ts";
import type { ResolvedConfig } from "./sandbox-config.ts";

/**
 * What is wrong with the webhook settings beyond their schema: allow-list entries that are no
 * origin or host, accounts configured with more endpoints than they may have, and the retired
 * `blockPrivateWebhookTargets: false`, which would silently leave a hole where it meant "off".
 */
export function findWebhookSettingsProblems(config: ResolvedConfig): string[] {
  const problems: string[] = [];
  config.allowWebhookTargets.forEach((entry, index) => {
    const problem = describeAllowEntryProblem(entry);
    if (problem) problems.push(`allowWebhookTargets[${index}]: ${problem}, got ${JSON.stringify(entry)}`);
  });
  const most = config.maxWebhookEndpointsPerAccount;
  config.accounts.forEach((account, a) => {
    const count = account.webhookEndpoints?.length ?? 0;
    if (count > most) {
      problems.push(
        `accounts[${a}].webhookEndpoints: lists ${count} endpoints, more than maxWebhookEndpointsPerAccount (${most})`,
      );
    }
  });
  if (config.blockPrivateWebhookTargets === false) {
    problems.push(
      'blockPrivateWebhookTargets: false no longer turns the webhook target guard off; remove it and list your local receivers in allowWebhookTargets, such as ["http://127.0.0.1:4000"] or ["localhost"]',
    );
  }
  return problems;
}
