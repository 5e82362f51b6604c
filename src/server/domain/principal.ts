import type { ClientIdRecord } from "../store/records.ts";

/** Who is calling: an account, through its API key or one of its client IDs. */
export type Principal =
  | { kind: "apiKey"; accountId: string }
  | { kind: "clientId"; accountId: string; clientId: ClientIdRecord };
