import type { ErrorRequestHandler, RequestHandler } from "express";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { operationDocument } from "../../spec/operation-document.ts";
import type { SpecOperation } from "../../spec/operations.ts";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { maxListedIssues, ProblemError, validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";
import { readIssueWording, toValidationIssues, type ValidatorIssue } from "./validation-issues.ts";

type ValidatorOptions = ConstructorParameters<typeof OpenApiValidator>[0];
type LoadedSpec = Awaited<Parameters<OpenApiValidator["installMiddleware"]>[0]>;

/**
 * The validator's options, the same for every operation. Security is checked by `authenticate`
 * beforehand, and unknown paths never reach it.
 */
function validatorOptions(document: SpecDocument, validateResponses: boolean): ValidatorOptions {
  return {
    apiSpec: document as unknown as ValidatorOptions["apiSpec"],
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: "full" },
    ignoreUndocumented: true,
    fileUploader: false,
  };
}

/** Runs middleware in order as one handler: the first error ends the run. */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown) => {
      const handler = handlers[index++];
      if (error !== undefined || handler === undefined) return next(error);
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
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
  validateResponses: boolean,
): RequestHandler {
  const document = operationDocument(spec, operation);
  const validator = new OpenApiValidator(validatorOptions(document, validateResponses));
  const route = {
    basePath: "",
    openApiRoute: operation.key,
    expressRoute: operation.key.replace(/\{([^}]+)\}/g, ":$1"),
    method: operation.method,
    pathParams: operation.pathParams,
  };
  const loaded = { apiDoc: document, basePaths: [""], routes: [route], serial: ++specSerial };
  const handlers = validator.installMiddleware(Promise.resolve(loaded as unknown as LoadedSpec));
  return inSequence(handlers as unknown as RequestHandler[]);
}

/**
 * express-openapi-validator: every request, and every response unless switched off. One
 * validator per operation: it never looks for the route among all paths on each request (the
 * operation comes from resolveOperation's match), and it compiles only the schemas its
 * operation references.
 */
export function validateAgainstSpec(
  spec: SpecDocument,
  operations: readonly SpecOperation[],
  options: { validateResponses: boolean },
): RequestHandler {
  const validators = new Map<string, RequestHandler>();
  for (const operation of operations) {
    if (operation.kind === "path")
      validators.set(operation.operationId, operationValidator(spec, operation, options.validateResponses));
  }
  return (req, res, next) => {
    const operationId = stateOf(res).route?.operationId;
    const validate = operationId === undefined ? undefined : validators.get(operationId);
    if (!validate) return next(new Error("validateAgainstSpec runs after resolveOperation"));
    validate(req, res, next);
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
