import { hash, timingSafeEqual } from "node:crypto";
import type { AccountConfig } from "../config/sandbox-config.ts";

const digest = (value: string) => hash("sha256", value, "buffer");

/**
 * Finds the account of an API key in constant time: both sides are hashed to 32 bytes, so
 * `timingSafeEqual` never sees unequal lengths, and every key is compared, match or not.
 * A key that matched is remembered by its exact text, so that a client sending the same key on
 * every request pays for the hash once; the keys remembered are only the configured ones, and
 * any other text still goes through the hash and every comparison.
 */
export function createApiKeyVerifier(accounts: readonly AccountConfig[]) {
  const keys = accounts.flatMap((account) =>
    account.apiKeys.map((key) => ({ hash: digest(key), accountId: account.id })),
  );
  const verified = new Map<string, string>();
  return (presented: string): string | undefined => {
    const known = verified.get(presented);
    if (known !== undefined) return known;
    const hash = digest(presented);
    let accountId: string | undefined;
    for (const key of keys) {
      if (timingSafeEqual(hash, key.hash)) accountId = key.accountId;
    }
    if (accountId !== undefined) verified.set(presented, accountId);
    return accountId;
  };
}

export type ApiKeyVerifier = ReturnType<typeof createApiKeyVerifier>;
