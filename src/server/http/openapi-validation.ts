import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { RequestValidator } from "express-openapi-validator/dist/middlewares/openapi.request.validator.js";
import type { SpecOperation } from "../../spec/operations.ts";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { maxListedIssues, ProblemError, validationFailed } from "../problems.ts";
import { inSequence } from "./in-sequence.ts";
import {
  expressRouteOf,
  operationSchema,
  operationValidationInputs,
  requestSchemaKey,
} from "./operation-validation-inputs.ts";
import { type PrecompiledRequests, precompiledRequestsFor } from "./precompiled-requests.ts";
import { type PrecompiledResponses, precompiledResponsesFor } from "./precompiled-responses.ts";
import { stateOf } from "./request-state.ts";
import { requestValidatorParts, seedRequestSchemas } from "./request-validator-parts.ts";
import { type CompiledResponses, createResponseCheck } from "./response-check.ts";
import {
  type IssueWording,
  readIssueWording,
  toValidationIssues,
  type ValidatorIssue,
} from "./validation-issues.ts";

interface OperationValidator {
  validate: RequestHandler;
  warmUp: RequestHandler;
  /** The validator's request side, whose compiled schemas the tests look at. */
  requestValidator: RequestValidator;
}

let specSerial = 0;

/**
 * What the validator's metadata step puts on `req.openapi` for a request of this operation: the
 * route and the operation's schema (and its copy for responses), the same for every request.
 */
interface ValidatorRoute {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  _responseSchema: unknown;
  serial: number;
}

/**
 * The validator of one operation, given the operation's own document (operationDocument) as
 * already loaded: the validator's loader would clone and re-bundle the document and compile
 * the OpenAPI meta-schema once per validator. The bundled spec is checked when it is built
 * (`npm run lint`) and by test/spec instead.
 *
 * It runs the validator's request middleware directly, as its own `installMiddleware` would after
 * loading, but without the steps it does not need per request: finding the route among the
 * document's paths (resolveOperation has matched it, and the route is the same for every request
 * of the operation), path-parameter hooks for Express routes (operations have none), the security
 * step (off) and a promise for the loaded document before each step. Answers are checked by the
 * validator's ResponseValidator where they are sent (createResponseCheck), not by a hook around
 * `res.json` installed on every request.
 */
function operationValidator(
  spec: SpecDocument,
  operation: SpecOperation,
  options: {
    validateResponses: boolean;
    strictBodies: boolean;
    compiledResponses: CompiledResponses;
    precompiledResponses: PrecompiledResponses | undefined;
    precompiledRequests: PrecompiledRequests | undefined;
  },
): OperationValidator {
  const inputs = operationValidationInputs(spec, operation, options);
  const serial = ++specSerial;
  const route: ValidatorRoute = {
    expressRoute: expressRouteOf(operation),
    openApiRoute: operation.key,
    schema: operationSchema(inputs.document, operation),
    _responseSchema: inputs.responseDocument
      ? operationSchema(inputs.responseDocument, operation)
      : undefined,
    serial,
  };
  // What the validator's requestValidationMiddleware makes, with the Ajv options of operationValidationInputs.
  const requestValidator = new RequestValidator(
    inputs.document as unknown as ConstructorParameters<typeof RequestValidator>[0],
    inputs.requestAjvOptions,
  );
  const precompiled = options.precompiledRequests?.(operation.operationId);
  if (precompiled) {
    const { formats } = requestValidatorParts(requestValidator).ajv;
    seedRequestSchemas(requestValidator, requestSchemaKey(operation), precompiled(formats));
  }
  const validateRequest: RequestHandler = (req, res, next) => requestValidator.validate(req, res, next);
  const responses = options.validateResponses
    ? createResponseCheck(inputs.responseDocument, {
        ajv: inputs.responseAjvOptions,
        validateResponses: inputs.validateResponses,
        serial,
        responses: inputs.responses,
        compiled: options.compiledResponses,
        precompiled: options.precompiledResponses?.(operation.operationId),
        cacheKey: inputs.responseCacheKey,
      })
    : undefined;
  const describe: RequestHandler = (req, res, next) => {
    const pathParams = stateOf(res).pathParams ?? {};
    // Member by member: a spread of `route` costs a copy of its members on every request.
    (req as unknown as { openapi: ValidatorRoute & { pathParams: Record<string, string> } }).openapi = {
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      schema: route.schema,
      _responseSchema: route._responseSchema,
      serial: route.serial,
      pathParams,
    };
    req.params = pathParams;
    next();
  };
  // The answer is checked where it is sent: dispatchOperation and sendProblem take the check.
  const checkAnswer: RequestHandler = (_req, res, next) => {
    stateOf(res).responseCheck = responses?.check;
    next();
  };
  // A warm-up request compiles every response schema, even when the request validator refuses its example.
  const compileResponses: RequestHandler = (_req, _res, next) => {
    responses?.compile();
    next();
  };
  return {
    validate: inSequence([describe, validateRequest, checkAnswer]),
    warmUp: inSequence([describe, compileResponses, checkAnswer, validateRequest]),
    requestValidator,
  };
}

/** The validators made for one spec with one set of options, and the response schemas they compiled. */
interface ValidatorSet {
  /** By operationId: each server reads its own SpecOperation objects from the same spec. */
  validators: Map<string, OperationValidator>;
  compiledResponses: CompiledResponses;
  /** The response schemas `npm run build` compiled for this spec, if it did. */
  precompiledResponses: PrecompiledResponses | undefined;
  /** The request schemas it compiled, which fit only without strictBodies. */
  precompiledRequests: PrecompiledRequests | undefined;
}

const validatorSets = new WeakMap<SpecDocument, Map<string, ValidatorSet>>();

/**
 * The validators of `spec` with these options, shared by every server of this process that
 * validates against the same spec object alike: a validator depends on nothing else, and keeps
 * nothing of a request. Servers after the first (several instances on one database, a test
 * suite's servers) find their operations compiled.
 */
export function sharedValidators(
  spec: SpecDocument,
  options: { validateResponses: boolean; strictBodies: boolean },
): ValidatorSet {
  let byOptions = validatorSets.get(spec);
  if (!byOptions) {
    byOptions = new Map();
    validatorSets.set(spec, byOptions);
  }
  const key = `responses ${options.validateResponses}, strict bodies ${options.strictBodies}`;
  let set = byOptions.get(key);
  if (!set) {
    set = {
      validators: new Map(),
      compiledResponses: new Map(),
      precompiledResponses: options.validateResponses ? precompiledResponsesFor(spec) : undefined,
      precompiledRequests: options.strictBodies ? undefined : precompiledRequestsFor(spec),
    };
    byOptions.set(key, set);
  }
  return set;
}

/**
 * express-openapi-validator: every request, and every response unless switched off. One
 * validator per operation: it never looks for the route among all paths on each request (the
 * operation comes from resolveOperation's match), and it compiles only the schemas its
 * operation references. A request with the warm-up token (warm-up.ts) reaches the response
 * validator even when its request is refused.
 */
export function validateAgainstSpec(
  spec: SpecDocument,
  options: {
    validateResponses: boolean;
    strictBodies: boolean;
    /** Whether a request is the server's own warm-up (create-server.ts). */
    isWarmUp: (req: Request) => boolean;
  },
): RequestHandler {
  // Each validator is made at its operation's first request (or warm-up): a start-up pays only
  // for the operations it warms up.
  const { validators, compiledResponses, precompiledResponses, precompiledRequests } = sharedValidators(
    spec,
    options,
  );
  const validatorOf = (operation: SpecOperation) => {
    let validator = validators.get(operation.operationId);
    if (!validator) {
      validator = operationValidator(spec, operation, {
        ...options,
        compiledResponses,
        precompiledResponses,
        precompiledRequests,
      });
      validators.set(operation.operationId, validator);
    }
    return validator;
  };
  return (req, res, next) => {
    const route = stateOf(res).route;
    if (!route) return next(new Error("validateAgainstSpec runs after resolveOperation"));
    const validator = validatorOf(route);
    if (options.isWarmUp(req)) return validator.warmUp(req, res, next);
    validator.validate(req, res, next);
  };
}

interface ValidatorError {
  status?: number;
  errors?: ValidatorIssue[];
  message?: string;
}

function isValidatorError(error: unknown): error is ValidatorError & Error {
  return error instanceof Error && typeof (error as ValidatorError).status === "number";
}

/**
 * Turns the validator's 400s into validation problems with every issue. Its 413 and 415 never
 * come: parseJsonBody answers those first, and multipart is off. A response that breaks the spec
 * stays a 500 (the error handler logs it), as it is the server's fault.
 */
export function translateValidatorErrors(spec: SpecDocument): ErrorRequestHandler {
  // Read from the spec at the first refusal rather than at every start-up.
  let wording: IssueWording | undefined;
  return (error, req, res, next) => {
    if (error instanceof ProblemError || !isValidatorError(error) || error.status !== 400) return next(error);
    wording ??= readIssueWording(spec);
    const { route, pathParams = {} } = stateOf(res);
    const { listed, total } = toValidationIssues(
      req,
      pathParams,
      route?.operationId,
      error.errors ?? [],
      wording,
      maxListedIssues,
    );
    return next(validationFailed(listed, undefined, total));
  };
}
