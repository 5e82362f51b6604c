import type { Ajv, ErrorObject } from "ajv";
import { SchemaEnv } from "ajv/dist/compile/index.js";
import type { AnyValidateFunction } from "ajv/dist/core.js";
import type { RequestHandler } from "express";
import { RequestValidator } from "express-openapi-validator/dist/middlewares/openapi.request.validator.js";
import { ContentType } from "express-openapi-validator/dist/middlewares/util.js";
import type { SpecOperation } from "../../spec/operations.ts";
import {
  expressRouteOf,
  type OperationValidationInputs,
  operationSchema,
  requestSchemaKey,
} from "./operation-validation-inputs.ts";

/**
 * An operation's request schemas as express-openapi-validator compiles them: `general` checks
 * (and coerces) the query, headers and path parameters, `body` the body.
 */
export interface RequestSchemas {
  general: RequestSchemaValidator;
  body: RequestSchemaValidator;
}

/** A compiled request schema: it checks (and coerces) `{ query, headers, params, cookies, body }`; the errors of the last call are in `errors`. */
export type RequestSchemaValidator = ((data: Record<string, unknown>) => boolean) & {
  errors?: ErrorObject[] | null;
};

/** The parts of express-openapi-validator's RequestValidator, private in its declarations, that the build and the server reach. */
export interface RequestValidatorParts {
  /** The Ajv of the parameters, which coerces them, and the Ajv of the body. */
  ajv: Ajv;
  ajvBody: Ajv;
  /** Makes an operation's middleware, its schemas compiled into both Ajv instances under `key`. */
  buildMiddleware(path: string, schema: unknown, contentType: ContentType, key: string): RequestHandler;
}

export function requestValidatorParts(validator: RequestValidator): RequestValidatorParts {
  return validator as unknown as RequestValidatorParts;
}

/**
 * Puts an operation's compiled request schemas where the validator looks before it compiles:
 * each Ajv instance's entry under `key` (requestSchemaKey), which its `getSchema` answers with the
 * entry's function. The operation's first request then compiles nothing.
 */
export function seedRequestSchemas(validator: RequestValidator, key: string, schemas: RequestSchemas): void {
  const { ajv, ajvBody } = requestValidatorParts(validator);
  for (const [instance, validate] of [
    [ajv, schemas.general],
    [ajvBody, schemas.body],
  ] as const) {
    const compiled = new SchemaEnv({ schema: {}, schemaId: "$id" });
    // The validator only calls it and reads its `errors`, as it would Ajv's own compiled function.
    compiled.validate = validate as unknown as AnyValidateFunction;
    instance.refs[key] = compiled;
  }
}

/**
 * A RequestValidator of the operation with its request schemas compiled, as the server's compiles
 * them at the operation's first request (its `buildMiddleware`), into both Ajv instances under
 * requestSchemaKey: with the server's Ajv options, or with the build's, which keep each schema's
 * code (scripts/build-request-validators.ts).
 */
export function compileRequestSchemas(
  inputs: OperationValidationInputs,
  operation: SpecOperation,
  ajvOptions: object = inputs.requestAjvOptions,
): RequestValidatorParts {
  const validator = requestValidatorParts(
    new RequestValidator(
      inputs.document as unknown as ConstructorParameters<typeof RequestValidator>[0],
      ajvOptions as ConstructorParameters<typeof RequestValidator>[1],
    ),
  );
  const mediaType = operation.body?.mediaType;
  validator.buildMiddleware(
    expressRouteOf(operation),
    operationSchema(inputs.document, operation),
    ContentType.from({ headers: mediaType === undefined ? {} : { "content-type": mediaType } } as never),
    requestSchemaKey(operation),
  );
  return validator;
}
