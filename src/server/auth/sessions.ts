import { hash, randomBytes } from "node:crypto";
import type { SessionRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";

/** A new session token: 32 bytes from the CSPRNG, URL-safe. Only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The key a session is stored under: the SHA-256 of its token, so that a read of the store signs nobody in. */
export function hashSessionToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** The session of a token, if it exists and has not expired at `now`. */
export async function findLiveSession(
  store: Pick<StoreOperations, "sessions">,
  token: string,
  now: Date,
): Promise<SessionRecord | undefined> {
  const session = await store.sessions.get(hashSessionToken(token));
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) return undefined;
  return session;
}

/**
 * The value of one cookie in a `Cookie` header, or undefined. Cookie values are not decoded: the
 * session token is URL-safe base64, which needs none.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    return value === "" ? undefined : value;
  }
  return undefined;
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined for none or another
 * scheme. The scheme's name is case-insensitive (RFC 9110).
 */
export function readBearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
