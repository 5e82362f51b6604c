import type { SpecOperation } from "../spec/operations.ts";
import { type CheckDefinition, defineCheck, type SuiteContext, sendAndJudge } from "./check-kit.ts";
import {
  accepts,
  type ClientIdCredentials,
  type Credentials,
  credentialHeaders,
  isApiKey,
  isOrchestratorKey,
  listCredentials,
  MissingCredential,
  type PlannedCheck,
} from "./target.ts";
import type { ContractRequest } from "./valid-inputs.ts";

const disallowedOrigin = "https://not-allowed.invalid";
const wrongApiKey = "payreq-contract-suite-wrong-api-key";
const wrongOrchestratorKey = "orc_payreq_contract_suite_wrong_key";
const unknownClientId = "payreq-contract-suite-unknown-client-id";
const placeholderOrigin = "https://app.example";

const prismAcceptsAnyKey = "Prism accepts any API key value";
const prismAcceptsAnyClientId = "Prism accepts any client ID value";
const prismCannotKnowDomains = "Prism cannot know a client ID's allowed domains";
const needsClientId = new MissingCredential(
  "needs a client ID: give --client-id and --origin, or --extra-client-id and --extra-origin",
);

/**
 * Which credentials an operation is called with: none where it needs none; else the target's
 * that it accepts, then, on a stateful target, a fresh session where it accepts one.
 */
export function acceptedCredentials(context: SuiteContext, operation: SpecOperation): Credentials[] {
  if (operation.acceptsAnonymous) return [{ none: true }];
  const accepted: Credentials[] = listCredentials(context.target).filter((credentials) =>
    accepts(operation, credentials),
  );
  if (operation.acceptsSession && context.options.stateful) accepted.push({ session: "fresh" });
  return accepted;
}

export function missingCredentialReason(operation: SpecOperation): MissingCredential {
  if (operation.acceptsOrchestratorKey) {
    return new MissingCredential(
      "needs an orchestrator key (--orchestrator-key): this operation takes no other credential",
    );
  }
  if (operation.acceptsSession && !operation.acceptsApiKey && !operation.acceptsClientId) {
    return new MissingCredential(
      "needs a session, which the suite opens by registering a user: a stateful target only",
    );
  }
  return new MissingCredential(
    operation.acceptsApiKey
      ? "needs an API key (--api-key or --extra-api-key): this operation does not accept client IDs"
      : "needs a client ID (--client-id and --origin, or --extra-client-id and --extra-origin): this operation does not accept API keys",
  );
}

/**
 * Calls with no, wrong or misplaced credentials, on an otherwise valid request: each must get the
 * documented 401, or 403 for a client ID used from an origin outside its allowed domains.
 */
export function planAuthChecks(
  context: SuiteContext,
  operation: SpecOperation,
  request: ContractRequest,
): PlannedCheck[] {
  // An operation that needs no credential is answered the same with any or none.
  if (operation.acceptsAnonymous) return [];
  const stateless = !context.options.stateful;
  const givenClientId = listCredentials(context.target).find(
    (credentials): credentials is ClientIdCredentials =>
      !isApiKey(credentials) && !isOrchestratorKey(credentials),
  );
  const anyClientId: ClientIdCredentials = givenClientId ?? {
    clientId: unknownClientId,
    origin: placeholderOrigin,
  };
  const check = (
    name: string,
    headers: Record<string, string>,
    status: number,
    notRunReason?: string | MissingCredential,
  ): PlannedCheck => {
    const definition: CheckDefinition = {
      operationId: operation.operationId,
      check: name,
      notRunReason,
      body: () => sendAndJudge(context, operation, request, headers, [status]),
    };
    return defineCheck(context, definition);
  };

  if (operation.acceptsOrchestratorKey) {
    const givenApiKey = listCredentials(context.target).find(isApiKey);
    return [
      check("no credentials -> 401", {}, 401),
      check(
        "wrong orchestrator key -> 401",
        credentialHeaders({ orchestratorKey: wrongOrchestratorKey }),
        401,
        stateless ? "Prism accepts any orchestrator key value" : undefined,
      ),
      check(
        "API key instead of an orchestrator key -> 401",
        credentialHeaders(givenApiKey ?? { apiKey: wrongApiKey }),
        401,
        stateless ? "Prism accepts any credential of the operation's security" : undefined,
      ),
    ];
  }
  const checks = [
    check("no credentials -> 401", {}, 401),
    ...(operation.acceptsSession
      ? [
          check(
            "session cookie of no session -> 401",
            { cookie: "session_token=payreq-contract-suite-no-such-session" },
            401,
            stateless ? "Prism cannot know which sessions exist" : undefined,
          ),
        ]
      : []),
    ...(operation.acceptsSessionBearer
      ? [
          check(
            "bearer token of no session -> 401",
            { authorization: "Bearer payreq-contract-suite-no-such-session" },
            401,
            stateless ? "Prism cannot know which sessions exist" : undefined,
          ),
        ]
      : []),
    check(
      "wrong API key -> 401",
      credentialHeaders({ apiKey: wrongApiKey }),
      401,
      stateless ? prismAcceptsAnyKey : undefined,
    ),
  ];
  if (!operation.acceptsApiKey) {
    const givenApiKey = listCredentials(context.target).find(isApiKey);
    checks.push(
      check(
        "API key instead of a client ID -> 401",
        credentialHeaders(givenApiKey ?? { apiKey: wrongApiKey }),
        401,
      ),
    );
  }
  if (!operation.acceptsClientId) {
    checks.push(check("client ID instead of an API key -> 401", credentialHeaders(anyClientId), 401));
    return checks;
  }
  checks.push(
    check(
      "unknown client ID -> 401",
      credentialHeaders({ clientId: unknownClientId, origin: anyClientId.origin }),
      401,
      stateless ? prismAcceptsAnyClientId : undefined,
    ),
    check("client ID without Origin -> 401", { "x-client-id": anyClientId.clientId }, 401),
    check(
      "client ID from a disallowed origin -> 403",
      credentialHeaders({ clientId: anyClientId.clientId, origin: disallowedOrigin }),
      403,
      stateless ? prismCannotKnowDomains : givenClientId ? undefined : needsClientId,
    ),
  );
  return checks;
}
