import type { Ajv, ErrorObject } from "ajv";
import type { Request, Response } from "express";
import { ResponseValidator } from "express-openapi-validator/dist/middlewares/openapi.response.validator.js";

/** A compiled response schema: it checks `{ response: body }`; the errors of the last call are in `errors`. */
export type SchemaValidator = ((data: { response: unknown }) => boolean) & { errors?: ErrorObject[] | null };
/** The validator's compiled response schemas: by status (or `2XX`, `default`), then by media type. */
export type ResponseValidators = Record<string, Record<string, SchemaValidator>>;

/**
 * An operation's response schemas compiled by `npm run build` (precompiled-responses.ts), made
 * with the formats of the Ajv that would otherwise compile them.
 */
export type PrecompiledOperation = (formats: object) => ResponseValidators;

/** The compiled schemas of responses, by their content as JSON: the same error answer, say, is compiled once (sharedValidators). */
export type CompiledResponses = Map<string, Record<string, SchemaValidator>>;

/** The parts of express-openapi-validator's ResponseValidator that its own response hook calls. */
export interface ResponseValidatorParts {
  /** The Ajv its schemas are compiled with. */
  ajvBody: Ajv;
  /** Compiles each response's schemas (its Ajv caches them under `cacheKey`); what its `_getOrBuildValidator` calls. */
  buildValidators(responses: Record<string, unknown>, cacheKey: string): ResponseValidators;
  _validate(input: {
    validators: ResponseValidators;
    body: unknown;
    statusCode: number;
    path: string;
    accepts: string[];
  }): void;
  canValidateContentType(contentType: string): boolean;
}

/**
 * express-openapi-validator's ResponseValidator of a response document, as the server, the build
 * (scripts/build-response-validators.ts) and the tests make it: the parts it calls are private in
 * the validator's declarations.
 */
export function responseValidatorFor(
  responseDocument: unknown,
  ajvOptions: unknown,
  validateResponses: unknown,
  serial?: number,
): ResponseValidatorParts {
  return new ResponseValidator(
    responseDocument as ConstructorParameters<typeof ResponseValidator>[0],
    ajvOptions as ConstructorParameters<typeof ResponseValidator>[1],
    validateResponses as ConstructorParameters<typeof ResponseValidator>[2],
    serial,
  ) as unknown as ResponseValidatorParts;
}

/** Checks an answer's body against the operation's response schemas; throws the validator's 500 when it breaks them. */
export type ResponseCheck = (req: Request, res: Response, body: unknown) => void;

/** What the validator's response hook compares against: the answer's media type, else what the caller accepts. */
function acceptsOf(req: Request, res: Response): string[] {
  const contentType = res.getHeader("content-type");
  if (contentType !== undefined) return [String(contentType)];
  const accept = req.headers.accept;
  return accept ? accept.split(",").map((type) => type.trim()) : [];
}

/**
 * The response check of one operation, with express-openapi-validator's ResponseValidator: its
 * compiled schemas and, for anything but the usual case, its own `_validate`. Its response hook
 * would wrap `res.json` on every request and, on every answer, parse the request's and the
 * answer's media types and copy the answer's headers to find the schema; here the schema is
 * found once per status. The usual case is a status with one JSON media type: its compiled
 * schema is run directly, and an answer it refuses goes to `_validate` too, which throws the
 * validator's error. Like the hook, it leaves 5xx answers alone.
 */
export function createResponseCheck(
  responseDocument: unknown,
  options: {
    ajv: unknown;
    validateResponses: unknown;
    serial: number;
    /** The operation's responses, by status. */
    responses: Record<string, unknown>;
    /** Where the operations validated alike keep and find compiled responses. */
    compiled: CompiledResponses;
    /** The operation's responses as `npm run build` compiled them, when it did. */
    precompiled?: PrecompiledOperation | undefined;
    /** The operation's own name for its schemas in its Ajv's cache. */
    cacheKey: string;
  },
): { check: ResponseCheck; compile(): void } {
  const validator = responseValidatorFor(
    responseDocument,
    options.ajv,
    options.validateResponses,
    options.serial,
  );
  let validators: ResponseValidators | undefined;
  const compile = () => {
    validators ??= compileShared(
      validator,
      options.responses,
      options.cacheKey,
      options.compiled,
      options.precompiled?.(validator.ajvBody.formats),
    );
    return validators;
  };
  /** The one JSON schema of a status, or null where `_validate` must choose (none, or several media types). */
  const direct = new Map<number, SchemaValidator | null>();
  const directValidator = (all: ResponseValidators, status: number) => {
    let found = direct.get(status);
    if (found === undefined) {
      const byType = all[status] ?? all[`${String(status)[0]}XX`] ?? all.default;
      const types = byType ? Object.keys(byType) : [];
      const [only] = types;
      found =
        byType && only !== undefined && types.length === 1 && validator.canValidateContentType(only)
          ? (byType[only] as SchemaValidator)
          : null;
      direct.set(status, found);
    }
    return found;
  };
  const check: ResponseCheck = (req, res, body) => {
    const status = res.statusCode;
    if (status >= 500) return;
    const all = compile();
    if (directValidator(all, status)?.({ response: body })) return;
    validator._validate({
      validators: all,
      body,
      statusCode: status,
      path: req.originalUrl,
      accepts: acceptsOf(req, res),
    });
  };
  return { check, compile };
}

/**
 * The operation's responses compiled, each taken from `compiled` when a response with the same
 * content was compiled before (the errors every operation answers alike), else from what the
 * build compiled (`precompiled`), else compiled here, and kept there. A status whose content
 * cannot be checked is left out, as the validator leaves it.
 */
function compileShared(
  validator: ResponseValidatorParts,
  responses: Record<string, unknown>,
  cacheKey: string,
  compiled: CompiledResponses,
  precompiled: ResponseValidators | undefined,
): ResponseValidators {
  const found: ResponseValidators = {};
  const missing: Record<string, unknown> = {};
  const keys = new Map<string, string>();
  for (const [status, response] of Object.entries(responses)) {
    const key = JSON.stringify((response as { content?: unknown }).content ?? null);
    const kept = compiled.get(key) ?? precompiled?.[status];
    if (kept) {
      found[status] = kept;
      compiled.set(key, kept);
    } else {
      missing[status] = response;
      keys.set(status, key);
    }
  }
  if (keys.size === 0) return found;
  const built = validator.buildValidators(missing, cacheKey);
  for (const [status, key] of keys) {
    const schemas = built[status];
    if (!schemas) continue;
    found[status] = schemas;
    compiled.set(key, schemas);
  }
  return found;
}
