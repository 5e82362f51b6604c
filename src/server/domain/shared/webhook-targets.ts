import { randomBytes } from "node:crypto";
import { validationFailed } from "../../problems.ts";
import { allowListHint } from "../../webhook-delivery/target-allow-list.ts";
import { hostOf, refuseHost } from "../../webhook-delivery/target-guard.ts";
import { describeWebhookUrlProblem } from "../../webhook-delivery/webhook-url.ts";
import type { DomainContext } from "./context.ts";

/** A fresh signing secret: 24 bytes from the CSPRNG. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("hex")}`;
}

/** Checks a webhook URL in `/body/url`: its form, then, unless allow-listed, the addresses its host resolves to. */
export async function checkWebhookUrl(ctx: DomainContext, url: string): Promise<void> {
  const problem = describeWebhookUrlProblem(url);
  if (problem) throw validationFailed([{ path: "/body/url", message: problem }]);
  if (ctx.webhooks.allowList.allows(url)) return;
  const refused = await refuseHost(hostOf(new URL(url)));
  if (refused) {
    throw validationFailed([
      { path: "/body/url", message: `must reach a public address: ${refused}${allowListHint}` },
    ]);
  }
}
