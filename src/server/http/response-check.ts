import type { Request, Response } from "express";
import { ResponseValidator } from "express-openapi-validator/dist/middlewares/openapi.response.validator.js";

type SchemaValidator = (data: { response: unknown }) => boolean;
/** The validator's compiled response schemas: by status (or `2XX`, `default`), then by media type. */
type ResponseValidators = Record<string, Record<string, SchemaValidator>>;

/** The parts of express-openapi-validator's ResponseValidator that its own response hook calls. */
interface ResponseValidatorParts {
  _getOrBuildValidator(req: Request, responses: unknown): ResponseValidators;
  _validate(input: {
    validators: ResponseValidators;
    body: unknown;
    statusCode: number;
    path: string;
    accepts: string[];
  }): void;
  canValidateContentType(contentType: string): boolean;
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
  options: { ajv: unknown; validateResponses: unknown; serial: number; responses: unknown },
): { check: ResponseCheck; compile(req: Request): void } {
  const validator = new ResponseValidator(
    responseDocument as ConstructorParameters<typeof ResponseValidator>[0],
    options.ajv as ConstructorParameters<typeof ResponseValidator>[1],
    options.validateResponses as ConstructorParameters<typeof ResponseValidator>[2],
    options.serial,
  ) as unknown as ResponseValidatorParts;
  let validators: ResponseValidators | undefined;
  const compile = (req: Request) => {
    validators ??= validator._getOrBuildValidator(req, options.responses);
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
    const all = compile(req);
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
