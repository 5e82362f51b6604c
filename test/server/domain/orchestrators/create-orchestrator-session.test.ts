import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig } from "../../../../src/server/index.ts";
import { problemErrors, startTestServer, type TestServer } from "../../helpers.ts";
import { sessionCookieOf, signInWithWallet, withSession } from "../auth/sign-in.ts";
import { asOrchestrator } from "./orchestrator-support.ts";

// createOrchestrator takes the signed-in session of the Auth API, as a bearer token or as the
// cookie, besides the account's API key: the service creates orchestrators for the session's platform.

const body = { orchestratorName: "Harbour Payments", orchestratorContactEmail: "ops@harbour.example" };
const asBearer = (token: string) => ({
  auth: "none" as const,
  headers: { authorization: `Bearer ${token}` },
});
const tokenOf = (cookie: string) => cookie.slice("session_token=".length);
const noLiveBearer =
  "The bearer token in Authorization names no live session (unknown, expired or logged out): sign in again.";

describe("createOrchestrator with a session", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("a wallet session's bearer token creates an orchestrator of the session's account, whose key works", async () => {
    const { cookie, session } = await signInWithWallet(server);
    expect(session.accountId).toMatch(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/);
    const answer = await server.call("POST", "/v2/orchestrators", { body, ...asBearer(tokenOf(cookie)) });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.orchestrator).toMatchObject({
      name: "Harbour Payments",
      supportEmail: "ops@harbour.example",
      status: "active",
    });
    const stored = await server.server.store.orchestrators.get(answer.body.orchestrator.id);
    expect(stored?.accountId).toBe(session.accountId);
    const fees = await server.call(
      "GET",
      "/v2/orchestrators/fee-configs",
      asOrchestrator(answer.body.rawKey),
    );
    expect([fees.status, fees.body]).toEqual([200, []]);
  });

  it("takes the scheme's name in any letter case", async () => {
    const { cookie, session } = await signInWithWallet(server);
    const answer = await server.call("POST", "/v2/orchestrators", {
      body,
      auth: "none",
      headers: { authorization: `bearer ${tokenOf(cookie)}` },
    });
    expect(answer.status, answer.text).toBe(201);
    const stored = await server.server.store.orchestrators.get(answer.body.orchestrator.id);
    expect(stored?.accountId).toBe(session.accountId);
  });

  it("the session cookie of an email sign-in creates one of that account", async () => {
    const registered = await server.call("POST", "/v1/auth/register", {
      auth: "none",
      body: { email: "ops@harbour.example", password: "correct horse battery staple" },
    });
    expect(registered.status, registered.text).toBe(201);
    const answer = await server.call("POST", "/v2/orchestrators", {
      body: { orchestratorName: "Harbour by email" },
      ...withSession(sessionCookieOf(registered)),
    });
    expect(answer.status, answer.text).toBe(201);
    const stored = await server.server.store.orchestrators.get(answer.body.orchestrator.id);
    expect(stored?.accountId).toBe(registered.body.accountId);
  });

  it("refuses a bearer token of no session with 401, without echoing it", async () => {
    const token = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const answer = await server.call("POST", "/v2/orchestrators", { body, ...asBearer(token) });
    expect(problemErrors(answer, "/problems/unauthorized", 401)).toEqual([]);
    expect(answer.body.detail).toBe(noLiveBearer);
    expect(answer.text).not.toContain(token);
  });

  it("refuses the bearer token of a logged-out session with 401", async () => {
    const { cookie } = await signInWithWallet(server);
    const loggedOut = await server.call("POST", "/v1/auth/logout", withSession(cookie));
    expect(loggedOut.status, loggedOut.text).toBe(200);
    const answer = await server.call("POST", "/v2/orchestrators", { body, ...asBearer(tokenOf(cookie)) });
    expect([answer.status, answer.body.detail]).toEqual([401, noLiveBearer]);
    const byCookie = await server.call("POST", "/v2/orchestrators", { body, ...withSession(cookie) });
    expect([byCookie.status, byCookie.body.detail]).toEqual([
      401,
      "The session_token cookie names no live session (expired or logged out): sign in again.",
    ]);
  });

  it("still takes the account's API key, and says what to send when nothing is sent", async () => {
    const byKey = await server.call("POST", "/v2/orchestrators", { body });
    expect(byKey.status, byKey.text).toBe(201);
    expect((await server.server.store.orchestrators.get(byKey.body.orchestrator.id))?.accountId).toBe(
      "acct_sandbox",
    );
    const none = await server.call("POST", "/v2/orchestrators", { body, auth: "none" });
    expect(problemErrors(none, "/problems/unauthorized", 401)).toEqual([]);
    expect(none.body.detail).toBe(
      "Send an API key in x-api-key, or sign in and send the session token as Authorization: Bearer <token> or as the session_token cookie.",
    );
  });

  it("ignores a session's bearer token on an operation that does not list it", async () => {
    const { cookie } = await signInWithWallet(server);
    const answer = await server.call("GET", "/v2/client-ids", asBearer(tokenOf(cookie)));
    expect([answer.status, answer.body.detail]).toEqual([
      401,
      "Send an API key in x-api-key; this operation does not accept client IDs.",
    ]);
    const logout = await server.call("POST", "/v1/auth/logout", asBearer(tokenOf(cookie)));
    expect([logout.status, logout.body.detail]).toEqual([
      401,
      "Sign in first: send the session_token cookie that POST /v1/auth/login or /v1/auth/wallet/verify set.",
    ]);
  });
});

describe("createOrchestrator with an expired session", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("refuses the bearer token once the session has expired", async () => {
    server = await startTestServer({ config: { ...createDefaultConfig(), sessionLifetimeSeconds: 60 } });
    const { cookie } = await signInWithWallet(server);
    const live = await server.call("POST", "/v2/orchestrators", { body, ...asBearer(tokenOf(cookie)) });
    expect(live.status, live.text).toBe(201);
    server.clock.set("2026-04-12T10:01:00.000Z");
    const expired = await server.call("POST", "/v2/orchestrators", { body, ...asBearer(tokenOf(cookie)) });
    expect([expired.status, expired.body.detail]).toEqual([401, noLiveBearer]);
  });
});
