import type { ErrorRequestHandler, RequestHandler } from "express";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { operationDocument } from "../../spec/operation-document.ts";
import type { SpecOperation } from "../../spec/operations.ts";
import { asObject, type SpecDocument } from "../../spec/spec-document.ts";
import { maxListedIssues, ProblemError, validationFailed } from "../problems.ts";
import { inSequence } from "./in-sequence.ts";
import { stateOf } from "./request-state.ts";
import { readIssueWording, toValidationIssues, type ValidatorIssue } from "./validation-issues.ts";

type ValidatorOptions = ConstructorParameters<typeof OpenApiValidator>[0];
type LoadedSpec = Awaited<Parameters<OpenApiValidator["installMiddleware"]>[0]>;

/**
 * The validator's options, the same for every operation. Security is checked by `authenticate`
 * beforehand, and unknown paths never reach it.
 *
 * Request bodies are closed in the spec (`additionalProperties: false`), which names the members
 * the service knows. By default the validator removes any other member before the operation runs,
 * as the real service does; with `strictBodies` it refuses them instead, naming each one.
 */
function validatorOptions(
  document: SpecDocument,
  options: { validateResponses: boolean; strictBodies: boolean },
): ValidatorOptions {
  return {
    apiSpec: document as unknown as ValidatorOptions["apiSpec"],
    validateRequests: {
      allErrors: true,
      allowUnknownQueryParameters: false,
      // true: remove the members a closed (additionalProperties: false) schema does not list.
      removeAdditional: !options.strictBodies,
    },
    validateResponses: options.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: "full" },
    ignoreUndocumented: true,
    fileUploader: false,
  };
}

/**
 * Runs every step even after one fails, then passes the first error on: a warm-up request whose
 * example the request validator refuses still installs the response validator, which compiles
 * when the refusal is answered.
 */
function throughAll(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    let first: unknown;
    const step = (error?: unknown) => {
      first ??= error;
      const handler = handlers[index++];
      if (handler === undefined) return next(first);
      handler(req, res, step);
    };
    step();
  };
}

interface OperationValidator {
  validate: RequestHandler;
  warmUp: RequestHandler;
}

/**
 * The operation's document as its validator gets it. Every error answer of an operation is the
 * same Problem (test/spec/error-responses.test.ts): the errors become one `default` response,
 * compiled once instead of once per status. That an operation answers only the statuses it
 * documents is checked where problems are answered (error-handler.ts).
 */
function validatorDocument(spec: SpecDocument, operation: SpecOperation): SpecDocument {
  const document = operationDocument(spec, operation);
  const item = asObject(asObject(document.paths)[operation.key]);
  const method = asObject(item[operation.method.toLowerCase()]);
  const responses = Object.entries(asObject(method.responses));
  const errors = responses.filter(([status]) => !status.startsWith("2"));
  const contents = new Set(errors.map(([, response]) => JSON.stringify(asObject(response).content)));
  const [firstError] = errors;
  if (firstError && contents.size === 1) {
    method.responses = Object.fromEntries([
      ...responses.filter(([status]) => status.startsWith("2")),
      ["default", { description: "Any documented error.", content: asObject(firstError[1]).content }],
    ]);
  }
  return document;
}

let specSerial = 0;

/**
 * The validator of one operation, given the operation's own document (operationDocument) as
 * already loaded: the validator's loader would clone and re-bundle the document and compile
 * the OpenAPI meta-schema once per validator. The bundled spec is checked when it is built
 * (`npm run lint`) and by test/spec instead.
 */
function operationValidator(
  spec: SpecDocument,
  operation: SpecOperation,
  options: { validateResponses: boolean; strictBodies: boolean },
): OperationValidator {
  const document = validatorDocument(spec, operation);
  const validator = new OpenApiValidator(validatorOptions(document, options));
  const route = {
    basePath: "",
    openApiRoute: operation.key,
    expressRoute: operation.key.replace(/\{([^}]+)\}/g, ":$1"),
    method: operation.method,
    pathParams: operation.pathParams,
  };
  const loaded = { apiDoc: document, basePaths: [""], routes: [route], serial: ++specSerial };
  const handlers = validator.installMiddleware(Promise.resolve(loaded as unknown as LoadedSpec)) as unknown;
  return {
    validate: inSequence(handlers as RequestHandler[]),
    warmUp: throughAll(handlers as RequestHandler[]),
  };
}

/** The header a warm-up request carries its token in (warm-up.ts); no other request can know the token. */
export const warmUpHeader = "x-payreq-warm-up";

/**
 * express-openapi-validator: every request, and every response unless switched off. One
 * validator per operation: it never looks for the route among all paths on each request (the
 * operation comes from resolveOperation's match), and it compiles only the schemas its
 * operation references. A request with the warm-up token (warm-up.ts) reaches the response
 * validator even when its request is refused.
 */
export function validateAgainstSpec(
  spec: SpecDocument,
  options: { validateResponses: boolean; strictBodies: boolean; warmUpToken: string },
): RequestHandler {
  // Each validator is made at its operation's first request (or warm-up): a start-up pays only
  // for the operations it warms up.
  const validators = new Map<SpecOperation, OperationValidator>();
  const validatorOf = (operation: SpecOperation) => {
    let validator = validators.get(operation);
    if (!validator) {
      validator = operationValidator(spec, operation, options);
      validators.set(operation, validator);
    }
    return validator;
  };
  return (req, res, next) => {
    const route = stateOf(res).route;
    if (!route) return next(new Error("validateAgainstSpec runs after resolveOperation"));
    const validator = validatorOf(route);
    if (req.get(warmUpHeader) === options.warmUpToken) return validator.warmUp(req, res, next);
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
  const wording = readIssueWording(spec);
  return (error, req, res, next) => {
    if (error instanceof ProblemError || !isValidatorError(error) || error.status !== 400) return next(error);
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
