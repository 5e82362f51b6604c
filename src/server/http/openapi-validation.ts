import type { ErrorRequestHandler, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { ProblemError, validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";
import { readIssueWording, toValidationIssues, type ValidatorIssue } from "./validation-issues.ts";

/**
 * express-openapi-validator on the bundled spec: every request, and every response unless
 * switched off. Security is checked by `authenticate` beforehand, and unknown paths never reach
 * it. The spec is cloned by the validator, never mutated here.
 *
 * Request bodies are closed in the spec (`additionalProperties: false`), which names the members
 * the service knows. By default the validator removes any other member before the operation runs,
 * as the real service does; with `strictBodies` it refuses them instead, naming each one.
 */
export function validateAgainstSpec(
  spec: SpecDocument,
  options: { validateResponses: boolean; strictBodies: boolean },
): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: spec as unknown as Parameters<typeof OpenApiValidator.middleware>[0]["apiSpec"],
    validateApiSpec: true,
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
  }) as unknown as RequestHandler[];
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
    return next(
      validationFailed(toValidationIssues(req, pathParams, route?.operationId, error.errors ?? [], wording)),
    );
  };
}
