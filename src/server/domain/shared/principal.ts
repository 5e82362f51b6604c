import type { ClientIdRecord } from "../../store/records.ts";

/** Who is calling: an account, through its API key or one of its client IDs. */
export type Principal =
  | { kind: "apiKey"; accountId: string }
  | { kind: "clientId"; accountId: string; clientId: ClientIdRecord };

/** The public client ID a caller used (its `x-client-id`), or null for an API key. */
export function callerClientId(principal: Principal): string | null {
  return principal.kind === "clientId" ? principal.clientId.clientId : null;
}
