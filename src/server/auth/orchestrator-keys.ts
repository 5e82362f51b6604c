import { hash, randomBytes } from "node:crypto";

/** The SHA-256 of an orchestrator key, in lowercase hex: all the store keeps of the key. */
export function hashOrchestratorKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** A new orchestrator key: `orc_live_` and 32 hex digits from the CSPRNG. */
export function newOrchestratorKey(): string {
  return `orc_live_${randomBytes(16).toString("hex")}`;
}

/** The characters of a key shown afterwards, to tell keys apart: the prefix and four more. */
export function orchestratorKeyPrefix(key: string): string {
  return key.slice(0, "orc_live_".length + 4);
}
