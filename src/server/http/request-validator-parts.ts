import type { Ajv, ErrorObject } from "ajv";
import { SchemaEnv } from "ajv/dist/compile/index.js";
import type { AnyValidateFunction } from "ajv/dist/core.js";
import type { RequestHandler } from "express";
import type { RequestValidator } from "express-openapi-validator/dist/middlewares/openapi.request.validator.js";
import type { ContentType } from "express-openapi-validator/dist/middlewares/util.js";

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
