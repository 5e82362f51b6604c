import type { ClientIdRecord, OrchestratorRecord, SessionRecord } from "../../store/records.ts";

/**
 * Who is calling: an account, through its API key, one of its client IDs, one of its
 * orchestrators' keys, or a signed-in user's session (the Auth API's `session_token` cookie). A
 * session acts for its user's account and sees that account's records only, as the other
 * credentials do.
 */
export type Principal =
  | { kind: "apiKey"; accountId: string }
  | {
      kind: "clientId";
      accountId: string;
      clientId: ClientIdRecord;
      /** The Origin the call was checked against; null for a backend client ID, which is checked for none. */
      origin: string | null;
      /** The orchestrator that called for the client ID with its key paired, if one did. */
      orchestrator?: OrchestratorRecord;
    }
  | { kind: "orchestrator"; accountId: string; orchestrator: OrchestratorRecord }
  | { kind: "session"; accountId: string; session: SessionRecord };

/** A caller without a credential, where the operation's security allows one (`{}`, or none). */
export interface AnonymousCaller {
  kind: "anonymous";
}

/** The caller of an operation that may be called without a credential. */
export type Caller = Principal | AnonymousCaller;

export const anonymousCaller: AnonymousCaller = Object.freeze({ kind: "anonymous" });

/** The public client ID a caller used (its `x-client-id`), or null for another credential. */
export function callerClientId(principal: Principal): string | null {
  return principal.kind === "clientId" ? principal.clientId.clientId : null;
}

/**
 * What a caller's requests record of how they were created: the public client ID and the
 * Origin it was checked against (null for a backend client ID), both null for another credential.
 */
export function callerClientScope(principal: Principal): { clientId: string | null; origin: string | null } {
  return principal.kind === "clientId"
    ? { clientId: principal.clientId.clientId, origin: principal.origin }
    : { clientId: null, origin: null };
}

/** The session a caller signed in with, or undefined. */
export function callerSession(caller: Caller): SessionRecord | undefined {
  return caller.kind === "session" ? caller.session : undefined;
}
