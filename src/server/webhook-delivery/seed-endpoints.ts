import { webhookEventNames } from "../../wire/webhook-event.ts";
import { configuredEndpointId, type SandboxConfig } from "../config/sandbox-config.ts";
import type { Store } from "../store/store.ts";

/**
 * Puts the configured webhook endpoints into the store. One the store already holds is kept as
 * it is, so that a secret rotated through the sandbox API survives a restart on the same store.
 */
export async function seedWebhookEndpoints(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const [accountIndex, account] of config.accounts.entries()) {
    for (const [index, endpoint] of (account.webhookEndpoints ?? []).entries()) {
      const id = endpoint.id ?? configuredEndpointId(accountIndex, index);
      if (await store.webhookEndpoints.get(id)) continue;
      await store.webhookEndpoints.put({
        id,
        accountId: account.id,
        url: endpoint.url,
        secret: endpoint.secret ?? account.webhookSecret,
        events: endpoint.events ?? [...webhookEventNames],
        source: "config",
        createdAt: at,
        updatedAt: at,
      });
    }
  }
}
