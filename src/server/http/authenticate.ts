import type { RequestHandler } from "express";
import type { CredentialRole, SpecOperation } from "../../spec/operations.ts";
import { loadAccountClock } from "../account-clock.ts";
import type { ApiKeyVerifier } from "../auth/api-keys.ts";
import { hashOrchestratorKey } from "../auth/orchestrator-keys.ts";
import { findLiveSession, readBearerToken, readCookie } from "../auth/sessions.ts";
import type { Clock } from "../clock.ts";
import { effectiveAllowedDomains, isBackendClientId } from "../domain/shared/client-ids.ts";
import { ProblemError } from "../problems.ts";
import type { OrchestratorRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { stateOf } from "./request-state.ts";

const unauthorized = (detail: string) => new ProblemError("unauthorized", detail);

/** Where the operations that accept a session tell the caller to get one. */
const signInHint = "the session_token cookie that POST /v1/auth/login or /v1/auth/wallet/verify set";

/** How an operation that takes a session and an API key tells the caller to send the session. */
const sessionHint = (route: SpecOperation) =>
  route.acceptsSessionBearer
    ? "the session token as Authorization: Bearer <token> or as the session_token cookie"
    : "the session_token cookie";

/**
 * Checks the credential the operation requires before any handler runs: an API key in
 * `x-api-key`; where the operation accepts it, the Auth API's session cookie (`session_token`,
 * read from the store by its hash, refused once expired or logged out), or the same token as
 * `Authorization: Bearer` where the operation lists `session_bearer`; or, where the operation
 * accepts it, a client ID in `x-client-id` with an `Origin`
 * among its allowed domains (a browser's same-origin call stands for the server's own origin,
 * `self`), or a backend client ID (no allowed domains) with or without one. 401 for a missing, unknown, inactive or revoked credential; 403 for
 * an origin outside the client ID's domains. An operation that takes client IDs only (the payee
 * destinations) ignores an API key; the orchestrator operations take only an orchestrator key in
 * `x-orchestrator-key`. Never echoes a credential. A client ID's check reads the
 * store, and its account's sandbox clock with it (to stamp `lastUsedAt`), for every later step;
 * an API key's check reads nothing stored. An operation that needs no credential (the Auth API's
 * sign-in) goes on without a principal when none is sent, and ignores a stale session cookie.
 */
export function authenticate(options: {
  verifyApiKey: ApiKeyVerifier;
  store: Store;
  /** The time source of every account's sandbox clock; each account's offset is in the store. */
  baseClock: Clock;
  publicOrigin: () => string;
  /** The header of each credential, from the spec's security schemes. */
  headers: Record<CredentialRole, string>;
  /** The session cookie's name, from the spec's `session_token` scheme. */
  sessionCookie: string;
}): RequestHandler {
  const {
    apiKey: apiKeyHeader,
    clientId: clientIdHeader,
    orchestratorKey: orchestratorKeyHeader,
  } = options.headers;
  const { sessionCookie } = options;
  return async (req, res, next) => {
    const state = stateOf(res);
    const route = state.route;
    if (!route) return next(new Error("authenticate runs after resolveOperation"));
    if (route.acceptsOrchestratorKey) {
      // The orchestrator operations take the orchestrator key and nothing else. The store holds
      // only the key's hash, so the presented key is found by its hash.
      const key = req.get(orchestratorKeyHeader);
      if (key === undefined || key === "") {
        return next(
          unauthorized(
            `Send an orchestrator key in ${orchestratorKeyHeader}; this operation takes no other credential.`,
          ),
        );
      }
      const orchestrator = await options.store.orchestrators.first("keyHash", hashOrchestratorKey(key));
      if (orchestrator?.status !== "active") {
        return next(unauthorized(`The orchestrator key in ${orchestratorKeyHeader} is not recognised.`));
      }
      state.principal = { kind: "orchestrator", accountId: orchestrator.accountId, orchestrator };
      return next();
    }
    const apiKey = req.get(apiKeyHeader);
    const clientId = req.get(clientIdHeader);
    // An orchestrator key paired with a client ID (the secure payment creations): the key is
    // checked here, the client ID, its Origin and their link below, as a client ID is.
    let pairedOrchestrator: OrchestratorRecord | undefined;
    const pairedKey = route.acceptsOrchestratorKeyWithClientId ? req.get(orchestratorKeyHeader) : undefined;
    if (pairedKey !== undefined && pairedKey !== "") {
      const orchestrator = await options.store.orchestrators.first("keyHash", hashOrchestratorKey(pairedKey));
      if (orchestrator?.status !== "active") {
        return next(unauthorized(`The orchestrator key in ${orchestratorKeyHeader} is not recognised.`));
      }
      if (clientId === undefined || clientId === "") {
        return next(
          unauthorized(
            `An orchestrator key is valid here only paired with a client ID in ${clientIdHeader} and its Origin.`,
          ),
        );
      }
      pairedOrchestrator = orchestrator;
    }

    if (apiKey !== undefined && apiKey !== "" && route.acceptsApiKey && !pairedOrchestrator) {
      const accountId = options.verifyApiKey(apiKey);
      if (accountId === undefined)
        return next(unauthorized(`The API key in ${apiKeyHeader} is not recognised.`));
      // The account's clock is read where the operation needs it (dispatchOperation), not here:
      // an operation that reads nothing stored answers while the database is unavailable.
      state.principal = { kind: "apiKey", accountId };
      return next();
    }
    // A session's token as `Authorization: Bearer`, where the operation lists that scheme: it
    // names the session it claims, so one that names none is refused whatever else is sent.
    const bearerToken = route.acceptsSessionBearer ? readBearerToken(req.get("authorization")) : undefined;
    if (bearerToken !== undefined) {
      const session = await findLiveSession(options.store, bearerToken, options.baseClock.now());
      if (!session) {
        return next(
          unauthorized(
            "The bearer token in Authorization names no live session (unknown, expired or logged out): sign in again.",
          ),
        );
      }
      state.principal = { kind: "session", accountId: session.accountId, session };
      return next();
    }
    const sessionToken =
      route.acceptsSession || route.acceptsAnonymous
        ? readCookie(req.get("cookie"), sessionCookie)
        : undefined;
    if (sessionToken !== undefined && route.acceptsSession) {
      const session = await findLiveSession(options.store, sessionToken, options.baseClock.now());
      if (session) {
        state.principal = { kind: "session", accountId: session.accountId, session };
        return next();
      }
      const hasClientId = clientId !== undefined && clientId !== "" && route.acceptsClientId;
      if (!route.acceptsAnonymous && !hasClientId) {
        return next(
          unauthorized(
            `The ${sessionCookie} cookie names no live session (expired or logged out): sign in again.`,
          ),
        );
      }
    }
    if (route.acceptsAnonymous && (clientId === undefined || clientId === "" || !route.acceptsClientId)) {
      return next();
    }
    if ((clientId === undefined || clientId === "") && route.acceptsSession) {
      return next(
        unauthorized(
          route.acceptsApiKey
            ? `Send an API key in ${apiKeyHeader}, or sign in and send ${sessionHint(route)}.`
            : route.acceptsClientId
              ? `Send ${signInHint}, or a client ID in ${clientIdHeader} together with Origin.`
              : `Sign in first: send ${signInHint}.`,
        ),
      );
    }
    if (clientId === undefined || clientId === "") {
      return next(
        unauthorized(
          !route.acceptsApiKey
            ? `Send a client ID in ${clientIdHeader} together with Origin; this operation does not accept API keys.`
            : route.acceptsClientId
              ? `Send an API key in ${apiKeyHeader}, or a client ID in ${clientIdHeader} together with Origin.`
              : `Send an API key in ${apiKeyHeader}; this operation does not accept client IDs.`,
        ),
      );
    }
    if (!route.acceptsClientId) {
      return next(
        unauthorized(
          route.acceptsSession && route.acceptsApiKey
            ? `Send an API key in ${apiKeyHeader}, or sign in and send ${sessionHint(route)}; client IDs are not accepted here.`
            : route.acceptsSession
              ? `Sign in first: send ${signInHint}; client IDs are not accepted here.`
              : `This operation requires an API key in ${apiKeyHeader}; client IDs are not accepted here.`,
        ),
      );
    }
    // Browsers omit Origin on same-origin GETs, such as the hosted payment page's own calls; the
    // browser-set Sec-Fetch-Site (which no page script can set) then vouches for the server's own origin.
    const origin =
      req.get("origin") ?? (req.get("sec-fetch-site") === "same-origin" ? options.publicOrigin() : undefined);
    // Read, check and stamp `lastUsedAt` in one transaction: a revocation committing in between
    // must neither be missed nor overwritten by the stamp.
    const outcome = await options.store.withTransaction(async (tx) => {
      const record = await tx.clientIds.first("publicValue", clientId);
      if (!record) return unauthorized(`The client ID in ${clientIdHeader} is not recognised.`);
      if (record.status !== "active")
        return unauthorized(`The client ID in ${clientIdHeader} is ${record.status}.`);
      // A backend client ID (no allowed domains) is checked for no Origin, as the service does:
      // its callers are servers, and whatever Origin one sends is neither checked nor reported.
      const backend = isBackendClientId(record);
      if (!backend && origin === undefined) {
        return unauthorized(
          "A client ID is only valid with the Origin header of one of its allowed domains.",
        );
      }
      if (!backend && !effectiveAllowedDomains(record, options.publicOrigin()).includes(origin as string)) {
        return new ProblemError(
          "originNotAllowed",
          `Origin ${origin} is not among the allowed domains of this client ID.`,
        );
      }
      if (pairedOrchestrator) {
        const link = await tx.orchestratorClientIdLinks.first("orchestratorAndClientId", {
          orchestratorId: pairedOrchestrator.id,
          clientIdId: record.id,
        });
        if (link?.status !== "active") {
          return unauthorized(
            `The client ID in ${clientIdHeader} is not linked to the orchestrator whose key is in ${orchestratorKeyHeader}.`,
          );
        }
      }
      // The account's clock is read in the same transaction, so the stamp and the request agree.
      const clock = await loadAccountClock(tx, options.baseClock, record.accountId);
      const used = { ...record, lastUsedAt: clock.now().toISOString() };
      await tx.clientIds.put(used);
      return { used, clock, origin: backend ? null : (origin as string) };
    });
    if (outcome instanceof ProblemError) return next(outcome);
    state.clock = outcome.clock;
    state.principal = {
      kind: "clientId",
      accountId: outcome.used.accountId,
      clientId: outcome.used,
      origin: outcome.origin,
      ...(pairedOrchestrator ? { orchestrator: pairedOrchestrator } : {}),
    };
    next();
  };
}
