/** A credential a target is given: a secret API key, or a public client ID with the calling page's origin. */
export type TargetCredentials = ApiKeyCredentials | ClientIdCredentials;
export type ApiKeyCredentials = { apiKey: string };
export type ClientIdCredentials = { clientId: string; origin: string };
/** An orchestrator's key: the orchestrator operations take only that. */
export type OrchestratorKeyCredentials = { orchestratorKey: string };
/**
 * An Auth API session: a fresh one for each request, which the suite gets by signing a new
 * wallet in (`POST /v1/auth/wallet/challenge`, then `/v1/auth/wallet/verify`), so that no check
 * depends on another (logging out ends the session it is sent with). A wallet's session is one
 * every session operation accepts, the payee destinations' included.
 */
export type SessionCredentials = { session: "fresh" };
/** No credential: the operation needs none (the sign-in operations and the health checks). */
export type NoCredentials = { none: true };
/** What one call presents. */
export type Credentials = TargetCredentials | OrchestratorKeyCredentials | SessionCredentials | NoCredentials;

/** The `cookie` header value that http-exchange.ts replaces with a fresh session's cookie. */
export const freshSessionCookie = "payreq-contract-suite-fresh-session";

/**
 * The deployment under test. `extra` is an optional second valid credential, used for the checks that
 * need a credential of the other kind (a client ID when the main one is an API key, or the reverse);
 * `orchestratorKey`, an optional orchestrator key for the orchestrator operations.
 */
export type ContractTarget = {
  baseUrl: string;
  extra?: TargetCredentials;
  orchestratorKey?: string;
} & TargetCredentials;

export interface ContractSuiteOptions {
  /**
   * True for a real implementation that keeps state and enforces everything (the reference server, a
   * deployment); false for a stateless mock such as Prism, where the checks it cannot pass are reported
   * as `needs-stateful-server` instead of being run.
   */
  stateful: boolean;
  /**
   * True when the target refuses request-body members the spec does not describe (a reference server
   * started with `--strict-bodies`, or a mock that reads the closed schemas literally, such as Prism);
   * false when it ignores them, as the real service does. By default, true for a stateless target
   * (a mock) and false for a stateful one.
   */
  strictBodies?: boolean;
  /** Per-request time limit; 15 s by default. */
  timeoutMs?: number;
  /**
   * Only the checks of these operations (by operationId), stateful scenarios included; every
   * operation's when absent. An id the spec does not have is an error (UnknownOperationError).
   */
  operations?: readonly string[];
}

/**
 * `needs-stateful-server`: not sent, or not judged, because the target is a stateless mock;
 * `needs-credential`: not sent, because it needs a credential of a kind the run was not given.
 */
export type Outcome = "pass" | "fail" | "needs-stateful-server" | "needs-credential";

/** Why a check is not sent: the run lacks a credential of the kind the operation accepts. */
export class MissingCredential {
  constructor(readonly reason: string) {}
}

export interface CheckResult {
  operationId: string;
  check: string;
  outcome: Outcome;
  reason: string;
}

/** One check of the suite, planned from the spec before anything is sent. */
export interface PlannedCheck {
  operationId: string;
  check: string;
  /**
   * Set when the check is not sent to this target at all; `run` then reports `needs-credential`
   * for a missing credential, `needs-stateful-server` for any other reason.
   */
  notRunReason?: string | MissingCredential;
  /**
   * Set when a stateless mock is known to fall short on this check. It is still sent; a shortfall that
   * is not a 5xx is reported as `needs-stateful-server` with this note and what was answered.
   */
  mockShortfall?: string;
  run(): Promise<CheckResult>;
}

export function isApiKey(credentials: Credentials): credentials is ApiKeyCredentials {
  return "apiKey" in credentials;
}

export function isClientId(credentials: Credentials): credentials is ClientIdCredentials {
  return "clientId" in credentials;
}

export function isOrchestratorKey(credentials: Credentials): credentials is OrchestratorKeyCredentials {
  return "orchestratorKey" in credentials;
}

/** The credentials of a target: the main one first, then `extra`, then the orchestrator key. */
export function listCredentials(target: ContractTarget): (TargetCredentials | OrchestratorKeyCredentials)[] {
  const main: TargetCredentials = isApiKey(target)
    ? { apiKey: target.apiKey }
    : { clientId: target.clientId, origin: target.origin };
  return [
    main,
    ...(target.extra ? [target.extra] : []),
    ...(target.orchestratorKey ? [{ orchestratorKey: target.orchestratorKey }] : []),
  ];
}

/** Whether an operation takes a credential of this kind. */
export function accepts(
  operation: {
    acceptsApiKey: boolean;
    acceptsClientId: boolean;
    acceptsOrchestratorKey: boolean;
    acceptsSession: boolean;
    acceptsAnonymous: boolean;
  },
  credentials: Credentials,
): boolean {
  if (isOrchestratorKey(credentials)) return operation.acceptsOrchestratorKey;
  if (isApiKey(credentials)) return operation.acceptsApiKey;
  if (isClientId(credentials)) return operation.acceptsClientId;
  return "session" in credentials ? operation.acceptsSession : operation.acceptsAnonymous;
}

export function describeCredentials(credentials: Credentials): string {
  if (isOrchestratorKey(credentials)) return "orchestrator key";
  if (isApiKey(credentials)) return "API key";
  if (isClientId(credentials)) return "client ID";
  return "session" in credentials ? "session" : "no credential";
}

/** The headers that present a credential; a session's cookie is filled in as the request is sent. */
export function credentialHeaders(credentials: Credentials): Record<string, string> {
  if (isOrchestratorKey(credentials)) return { "x-orchestrator-key": credentials.orchestratorKey };
  if (isApiKey(credentials)) return { "x-api-key": credentials.apiKey };
  if (isClientId(credentials)) return { "x-client-id": credentials.clientId, origin: credentials.origin };
  return "session" in credentials ? { cookie: freshSessionCookie } : {};
}
