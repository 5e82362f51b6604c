import { webhookEventNames } from "../wire/webhook-event.ts";
import { hashOrchestratorKey, orchestratorKeyPrefix } from "./auth/orchestrator-keys.ts";
import { configuredEndpointId, type SandboxConfig } from "./config/sandbox-config.ts";
import { newUser } from "./domain/auth/sessions.ts";
import { clientIdRecordFromConfig } from "./domain/shared/client-ids.ts";
import type { Store } from "./store/store.ts";

/** Puts the records the configuration names (client IDs, webhook endpoints, orchestrators) into the store, as the server starts. */
export async function seedConfiguredRecords(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  await Promise.all([
    seedClientIds(store, config, now),
    seedWebhookEndpoints(store, config, now),
    seedOrchestrators(store, config, now),
    seedWalletUsers(store, config, now),
  ]);
}

/**
 * Puts a user for each configured wallet, acting for its account, as a wallet's first sign-in
 * would; a wallet that already has a user keeps it.
 */
async function seedWalletUsers(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  for (const account of config.accounts) {
    for (const wallet of account.wallets ?? []) {
      const address = wallet.toLowerCase() as `0x${string}`;
      const login = `wallet:${address}`;
      if (await store.users.first("login", login)) continue;
      const user = newUser({ login, email: null, walletAddress: address, passwordHash: null }, now);
      await store.users.put({ ...user, accountId: account.id });
    }
  }
}

/** Puts the configured orchestrators into the store, their keys as hashes; one already there is kept. */
async function seedOrchestrators(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const account of config.accounts) {
    for (const orchestrator of account.orchestrators ?? []) {
      if (await store.orchestrators.get(orchestrator.id)) continue;
      await store.orchestrators.put({
        id: orchestrator.id,
        accountId: account.id,
        name: orchestrator.name,
        supportEmail: null,
        status: "active",
        keyId: orchestrator.id,
        keyPrefix: orchestratorKeyPrefix(orchestrator.key),
        keyHash: hashOrchestratorKey(orchestrator.key),
        createdAt: at,
        updatedAt: at,
      });
    }
  }
}

/**
 * Puts the configured client IDs into the store, keeping what the store already knows of their
 * use, and keeping a revoked one revoked: revocation is final, a restart does not undo it.
 */
async function seedClientIds(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  for (const account of config.accounts) {
    for (const clientId of account.clientIds) {
      const fresh = clientIdRecordFromConfig(account.id, clientId, now);
      const existing = await store.clientIds.get(clientId.id);
      await store.clientIds.put(
        existing
          ? {
              ...fresh,
              createdAt: existing.createdAt,
              lastUsedAt: existing.lastUsedAt,
              ...(existing.status === "revoked" ? { status: "revoked" as const } : {}),
            }
          : fresh,
      );
    }
  }
}

/**
 * Puts the configured webhook endpoints into the store. One the store already holds is kept as
 * it is, so that a secret rotated through the sandbox API survives a restart on the same store.
 */
async function seedWebhookEndpoints(store: Store, config: SandboxConfig, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const [accountIndex, account] of config.accounts.entries()) {
    for (const [index, endpoint] of (account.webhookEndpoints ?? []).entries()) {
      const id = endpoint.id ?? configuredEndpointId(accountIndex, index);
      if (await store.webhookEndpoints.get(id)) continue;
      await store.webhookEndpoints.put({
        id,
        accountId: account.id,
        scope: "account",
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
