import type { ClientIdRecord, OrchestratorRecord } from "../../store/records.ts";

/** Who is calling: an account, through its API key, one of its client IDs, or one of its orchestrators' keys. */
export type Principal =
  | { kind: "apiKey"; accountId: string }
  | { kind: "clientId"; accountId: string; clientId: ClientIdRecord }
  | { kind: "orchestrator"; accountId: string; orchestrator: OrchestratorRecord };

/** The public client ID a caller used (its `x-client-id`), or null for an API key. */
export function callerClientId(principal: Principal): string | null {
  return principal.kind === "clientId" ? principal.clientId.clientId : null;
}
