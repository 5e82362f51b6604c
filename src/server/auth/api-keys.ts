import { hash, timingSafeEqual } from "node:crypto";
import type { AccountConfig } from "../config/sandbox-config.ts";

const digest = (value: string) => hash("sha256", value, "buffer");

/**
 * Finds the account of an API key in constant time: both sides are hashed to 32 bytes, so
 * `timingSafeEqual` never sees unequal lengths, and every key is compared, match or not.
 */
export function createApiKeyVerifier(accounts: readonly AccountConfig[]) {
  const keys = accounts.flatMap((account) =>
    account.apiKeys.map((key) => ({ hash: digest(key), accountId: account.id })),
  );
  return (presented: string): string | undefined => {
    const hash = digest(presented);
    let accountId: string | undefined;
    for (const key of keys) {
      if (timingSafeEqual(hash, key.hash)) accountId = key.accountId;
    }
    return accountId;
  };
}

export type ApiKeyVerifier = ReturnType<typeof createApiKeyVerifier>;
