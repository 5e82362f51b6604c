import type { Response } from "express";

/** What an operation that opens or ends a session does to the answer's cookies. */
export interface SessionCookieWriter {
  /** Sets the session cookie (HttpOnly, SameSite=Lax, Path=/), lasting until `expiresAt`. */
  open(token: string, expiresAt: Date): void;
  /** Clears the session cookie. */
  clear(): void;
}

/** The session cookie of one answer, through Express's own `res.cookie`; `Secure` on an https origin. */
export function sessionCookieWriter(res: Response, name: string, secure: () => boolean): SessionCookieWriter {
  const attributes = () => ({ httpOnly: true, sameSite: "lax" as const, path: "/", secure: secure() });
  return {
    // Expires, from the server's clock (Express would compute a Max-Age's from the system's).
    open(token, expiresAt) {
      res.cookie(name, token, { ...attributes(), expires: expiresAt });
    },
    clear() {
      res.clearCookie(name, attributes());
    },
  };
}
