import { documentedClientErrors, type SpecOperation } from "../spec/operations.ts";
import { acceptedCredentials, missingCredentialReason, planAuthChecks } from "./auth-checks.ts";
import { defineCheck, type SuiteContext, sendAndJudge } from "./check-kit.ts";
import { extraInvalidBodies, unissuedExampleStatuses } from "./fixtures.ts";
import { type ExpectedRejection, type InvalidInput, listInvalidInputs } from "./invalid-inputs.ts";
import { type Credentials, credentialHeaders, describeCredentials, type PlannedCheck } from "./target.ts";
import { deriveUnknownId } from "./unknown-id.ts";
import { jsonBody, listValidCalls, type ValidCall } from "./valid-inputs.ts";

/** Statuses that mean something other than "this input is invalid". */
const notValidationStatuses = new Set([401, 403, 413, 415, 429]);
/** The answers the spec names for each kind of invalid input, most specific first. */
const namedRejections: Record<ExpectedRejection, number[]> = {
  validation: [400],
  // A malformed id can also be answered as one that names nothing.
  "invalid-path-value": [400, 404],
  "malformed-json": [400],
  "unsupported-media-type": [415],
  "payload-too-large": [413],
};
const prismCannotTellUnknownIds =
  "Prism cannot tell unknown ids: it answers every well-formed id with an example";

/**
 * The statuses a conforming server may answer an invalid input with: those the spec names for that kind
 * of input where the operation documents them, else any documented 4xx that means "invalid".
 */
export function rejectionStatuses(operation: SpecOperation, expect: ExpectedRejection): number[] {
  const documented = documentedClientErrors(operation);
  const named = namedRejections[expect].filter((status) => documented.includes(status));
  return named.length > 0 ? named : documented.filter((status) => !notValidationStatuses.has(status));
}

/**
 * The statuses a valid call may get: from a mock, the documented success; from a stateful server, any
 * documented answer except server errors and those that would mean the call itself was wrong (a
 * well-formed id may be unknown there, so 404 is fine).
 */
export function validCallStatuses(operation: SpecOperation, stateful: boolean): number[] {
  const documented = Object.keys(operation.responses)
    .map(Number)
    .filter((status) => Number.isInteger(status));
  if (!stateful) return documented.filter((status) => status >= 200 && status < 300);
  const unissued = unissuedExampleStatuses[operation.operationId] ?? [];
  return documented.filter(
    (status) => status < 500 && (!notValidationStatuses.has(status) || unissued.includes(status)),
  );
}

function planValidCalls(context: SuiteContext, operation: SpecOperation, calls: ValidCall[]): PlannedCheck[] {
  const accepted = acceptedCredentials(context, operation);
  const statuses = validCallStatuses(operation, context.options.stateful);
  if (operation.acceptsAnonymous) {
    return calls.map((call) =>
      defineCheck(context, {
        operationId: operation.operationId,
        check: "valid call (no credential)",
        body: () => sendAndJudge(context, operation, call.request, {}, statuses),
      }),
    );
  }
  const checks: PlannedCheck[] = [];
  for (const [index, credentials] of accepted.entries()) {
    // Every example with the main credential; the first one with the other credential.
    for (const call of index === 0 ? calls : calls.slice(0, 1)) {
      const example = call.exampleName ? `, example ${call.exampleName}` : "";
      checks.push(
        defineCheck(context, {
          operationId: operation.operationId,
          check: `valid call (${describeCredentials(credentials)}${example})`,
          body: () =>
            sendAndJudge(context, operation, call.request, credentialHeaders(credentials), statuses),
        }),
      );
    }
  }
  return checks;
}

function planUnknownIdChecks(
  context: SuiteContext,
  operation: SpecOperation,
  call: ValidCall,
): PlannedCheck[] {
  if (!documentedClientErrors(operation).includes(404)) return [];
  const [credentials] = acceptedCredentials(context, operation);
  return operation.parameters
    .filter((parameter) => parameter.in === "path")
    .map((parameter) =>
      defineCheck(context, {
        operationId: operation.operationId,
        check: `path ${parameter.name}: unknown id -> 404`,
        notRunReason: !context.options.stateful
          ? prismCannotTellUnknownIds
          : credentials
            ? undefined
            : missingCredentialReason(operation),
        body: async () => {
          const example = call.request.path[parameter.name] ?? "";
          const unknown = deriveUnknownId(context.validator, parameter.schema, example);
          if (unknown === undefined) {
            return {
              issues: [`could not derive a well-formed unknown value from the example "${example}"`],
              summary: "",
            };
          }
          const request = { ...call.request, path: { ...call.request.path, [parameter.name]: unknown } };
          const verdict = await sendAndJudge(
            context,
            operation,
            request,
            credentialHeaders(credentials ?? { apiKey: "" }),
            [404],
          );
          return { ...verdict, summary: `${verdict.summary} for ${unknown}` };
        },
      }),
    );
}

function extraInputs(operation: SpecOperation, call: ValidCall): InvalidInput[] {
  const body = operation.body;
  if (!body) return [];
  return (extraInvalidBodies[operation.operationId] ?? []).map((extra) => ({
    check: extra.check,
    request: { ...call.request, body: jsonBody(extra.build(body.examples), body.mediaType) },
    expect: "validation",
    ...(extra.needsState !== undefined ? { needsState: extra.needsState } : {}),
  }));
}

function planInvalidInputChecks(
  context: SuiteContext,
  operation: SpecOperation,
  call: ValidCall,
): PlannedCheck[] {
  const [credentials] = acceptedCredentials(context, operation);
  const inputs = [
    ...listInvalidInputs(context.spec, context.validator, operation, call),
    ...extraInputs(operation, call),
  ];
  return inputs.map((input) => {
    // A mock reads the closed body schemas literally; a stateful target ignores, as the service does.
    const strictBodies = context.options.strictBodies ?? !context.options.stateful;
    if (input.unknownMember && !strictBodies) {
      return planIgnoredMemberCheck(context, operation, call, input, credentials);
    }
    const statuses = rejectionStatuses(operation, input.expect);
    return defineCheck(context, {
      operationId: operation.operationId,
      check: `${input.check} -> ${statuses.join("/")}`,
      notRunReason: !credentials
        ? missingCredentialReason(operation)
        : context.options.stateful
          ? undefined
          : input.needsState,
      mockShortfall: input.mockShortfall,
      body: () =>
        sendAndJudge(
          context,
          operation,
          input.request,
          credentialHeaders(credentials ?? { apiKey: "" }),
          statuses,
        ),
    });
  });
}

/**
 * A body with a member the spec does not describe, sent to a target that ignores such members (as
 * the real service does): it must be answered exactly as the same call without that member, which
 * is sent first.
 */
function planIgnoredMemberCheck(
  context: SuiteContext,
  operation: SpecOperation,
  call: ValidCall,
  input: InvalidInput,
  credentials: Credentials | undefined,
): PlannedCheck {
  const headers = credentialHeaders(credentials ?? { apiKey: "" });
  return defineCheck(context, {
    operationId: operation.operationId,
    check: `${input.check} -> ignored`,
    notRunReason: credentials ? undefined : missingCredentialReason(operation),
    body: async () => {
      const statuses = validCallStatuses(operation, context.options.stateful);
      const plain = await sendAndJudge(context, operation, call.request, headers, statuses);
      if (plain.issues.length > 0) return { ...plain, summary: `the call without it: ${plain.summary}` };
      const withMember = await sendAndJudge(context, operation, input.request, headers, [plain.status ?? 0]);
      return { ...withMember, summary: `${withMember.summary}, as without it` };
    },
  });
}

/** Every check of one operation: valid calls, credentials, unknown ids and invalid inputs. */
export function planOperationChecks(context: SuiteContext, operation: SpecOperation): PlannedCheck[] {
  const calls = listValidCalls(operation);
  const [first] = calls;
  if (!first) return [];
  const validCalls = planValidCalls(context, operation, calls);
  if (validCalls.length === 0) {
    validCalls.push(
      defineCheck(context, {
        operationId: operation.operationId,
        check: "valid call",
        notRunReason: missingCredentialReason(operation),
        body: async () => ({ issues: [], summary: "" }),
      }),
    );
  }
  return [
    ...validCalls,
    ...planAuthChecks(context, operation, first.request),
    ...planUnknownIdChecks(context, operation, first),
    ...planInvalidInputChecks(context, operation, first),
  ];
}
