import { describe, expect, it } from "vitest";
import { createApiKeyVerifier } from "../../../src/server/auth/api-keys.ts";
import type { AccountConfig } from "../../../src/server/config/sandbox-config.ts";

const account = (id: string, apiKeys: string[]): AccountConfig =>
  ({ id, apiKeys, webhookSecret: `whsec_${id}_000000000`, clientIds: [] }) as unknown as AccountConfig;

describe("createApiKeyVerifier", () => {
  const verify = createApiKeyVerifier([
    account("acct_a", ["sk_a_first_00000001", "sk_a_second_0000001"]),
    account("acct_b", ["sk_b_only_000000001"]),
  ]);

  it("finds each key's account, again when the same key comes back", () => {
    for (let round = 0; round < 3; round++) {
      expect(verify("sk_a_first_00000001")).toBe("acct_a");
      expect(verify("sk_a_second_0000001")).toBe("acct_a");
      expect(verify("sk_b_only_000000001")).toBe("acct_b");
    }
  });

  it("refuses unknown keys, also ones that differ from a known key by one character or by case", () => {
    expect(verify("sk_a_first_00000001")).toBe("acct_a");
    for (const presented of [
      "sk_a_first_00000002",
      "SK_A_FIRST_00000001",
      "sk_a_first_0000000",
      "",
      " sk_a_first_00000001",
    ]) {
      expect(verify(presented)).toBeUndefined();
      expect(verify(presented)).toBeUndefined();
    }
  });
});
