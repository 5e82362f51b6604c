import { afterEach, describe, expect, it } from "vitest";
import { hashSessionToken } from "../../../../src/server/auth/sessions.ts";
import { createDefaultConfig } from "../../../../src/server/index.ts";
import { problemErrors, startTestServer, type TestServer } from "../../helpers.ts";
import { sessionCookieOf, withSession } from "./sign-in.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const credentials = { email: "Ada@Shop.example.com", password: "correct horse battery staple" };

async function register(body: unknown = credentials) {
  return (server as TestServer).call("POST", "/v1/auth/register", { auth: "none", body });
}

describe("getAuthHealth", () => {
  it("answers ok without a credential", async () => {
    server = await startTestServer();
    const answer = await server.call("GET", "/v1/health", { auth: "none" });
    expect([answer.status, answer.body]).toEqual([200, { status: "ok" }]);
  });
});

describe("registerUser", () => {
  it("creates a user with its own account, and sets an HttpOnly session cookie", async () => {
    server = await startTestServer();
    const answer = await register();
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      userId: expect.stringMatching(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/),
      accountId: answer.body.userId.replace("usr_", "acct_"),
      email: "ada@shop.example.com",
      walletAddress: null,
      expiresAt: "2026-04-13T10:00:00.000Z",
    });
    const [setCookie] = answer.headers.getSetCookie();
    expect(setCookie).toMatch(
      /^session_token=[A-Za-z0-9_-]{43}; Path=\/; Expires=Mon, 13 Apr 2026 10:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    expect(answer.text).not.toContain(credentials.password);
  });

  it("keeps only an Argon2id hash of the password, and the session only as the token's SHA-256", async () => {
    server = await startTestServer();
    const answer = await register();
    const user = await server.server.store.users.first("login", "email:ada@shop.example.com");
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(user)).not.toContain(credentials.password);
    const token = sessionCookieOf(answer).slice("session_token=".length);
    expect((await server.server.store.sessions.get(hashSessionToken(token)))?.userId).toBe(user?.id);
    expect(await server.server.store.sessions.get(token)).toBeUndefined();
  });

  it("refuses an email address already registered, in any letter case, naming the field", async () => {
    server = await startTestServer();
    await register();
    const again = await register({ ...credentials, email: "ADA@shop.example.com" });
    expect(again.status).toBe(400);
    expect(problemErrors(again, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/email", message: "is already registered; sign in with POST /v1/auth/login" },
    ]);
  });

  it("refuses a short password and a malformed email address with 400 naming each", async () => {
    server = await startTestServer();
    const answer = await register({ email: "not-an-email", password: "short" });
    expect(answer.status).toBe(400);
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/email",
      "/body/password",
    ]);
    expect(answer.text).not.toContain("short");
  });

  it("refuses a call that already has a valid session", async () => {
    server = await startTestServer();
    const cookie = sessionCookieOf(await register());
    const answer = await server.call("POST", "/v1/auth/register", {
      ...withSession(cookie),
      body: { email: "grace@shop.example.com", password: credentials.password },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(
      "This call already has a valid session: log out first (POST /v1/auth/logout).",
    );
  });
});

describe("loginUser", () => {
  it("signs in with the password, and refuses a wrong password and an unknown address alike", async () => {
    server = await startTestServer();
    const registered = await register();
    const login = await server.call("POST", "/v1/auth/login", {
      auth: "none",
      body: { email: "ada@shop.example.com", password: credentials.password },
    });
    expect(login.status).toBe(200);
    expect(login.body).toEqual(registered.body);
    expect(sessionCookieOf(login)).not.toBe(sessionCookieOf(registered));

    for (const body of [
      { email: credentials.email, password: "correct horse battery stapler" },
      { email: "nobody@shop.example.com", password: credentials.password },
    ]) {
      const refused = await server.call("POST", "/v1/auth/login", { auth: "none", body });
      expect([refused.status, refused.body.detail]).toEqual([
        401,
        "The email address or the password is wrong.",
      ]);
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
  });
});

describe("logoutUser", () => {
  it("ends the session: its cookie is cleared and the token refused from then on", async () => {
    server = await startTestServer();
    const cookie = sessionCookieOf(await register());
    const out = await server.call("POST", "/v1/auth/logout", withSession(cookie));
    expect([out.status, out.body]).toEqual([200, { loggedOut: true }]);
    expect(out.headers.getSetCookie()).toEqual([
      "session_token=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax",
    ]);
    const again = await server.call("POST", "/v1/auth/logout", withSession(cookie));
    expect([again.status, again.body.detail]).toEqual([
      401,
      "The session_token cookie names no live session (expired or logged out): sign in again.",
    ]);
  });

  it("answers 401 without a session, and once the session has expired", async () => {
    server = await startTestServer({ config: { ...createDefaultConfig(), sessionLifetimeSeconds: 60 } });
    const none = await server.call("POST", "/v1/auth/logout", { auth: "none" });
    expect([none.status, none.body.detail]).toEqual([
      401,
      "Sign in first: send the session_token cookie that POST /v1/auth/login or /v1/auth/wallet/verify set.",
    ]);
    const cookie = sessionCookieOf(await register());
    server.clock.set("2026-04-12T10:01:00.000Z");
    const expired = await server.call("POST", "/v1/auth/logout", withSession(cookie));
    expect(expired.status).toBe(401);
  });
});
