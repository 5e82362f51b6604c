import type { ErrorRequestHandler, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { ApiSpec } from "../api-spec.ts";
import { ProblemError, validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";
import { collectPatternHints, toValidationIssues, type ValidatorIssue } from "./validation-issues.ts";

/**
 * express-openapi-validator on the bundled spec: every request, and every response unless
 * switched off. Security is checked by `authenticate` beforehand, and unknown paths never reach
 * it. The spec is cloned by the validator, never mutated here.
 */
export function validateAgainstSpec(
  spec: ApiSpec,
  options: { validateResponses: boolean },
): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: spec as unknown as Parameters<typeof OpenApiValidator.middleware>[0]["apiSpec"],
    validateApiSpec: true,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
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
 * Turns the validator's errors into catalogue problems: 400 with every issue, 413, 415. A response
 * that breaks the spec stays a 500 (the error handler logs it), as it is the server's fault.
 */
export function translateValidatorErrors(spec: ApiSpec): ErrorRequestHandler {
  const hints = collectPatternHints(spec);
  return (error, req, res, next) => {
    if (error instanceof ProblemError || !isValidatorError(error)) return next(error);
    const { route, pathParams = {} } = stateOf(res);
    switch (error.status) {
      case 400:
        return next(
          validationFailed(
            toValidationIssues(req, pathParams, route?.operationId, error.errors ?? [], hints),
          ),
        );
      case 413:
        return next(
          new ProblemError("payloadTooLarge", "The body is larger than the limit of 1048576 bytes (1 MiB)."),
        );
      case 415:
        return next(
          new ProblemError(
            "unsupportedMediaType",
            `Send the body as application/json; got ${req.get("content-type")}.`,
          ),
        );
      default:
        return next(error);
    }
  };
}
