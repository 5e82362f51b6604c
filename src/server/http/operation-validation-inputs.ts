import { SchemaPreprocessor } from "express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js";
import { ContentType } from "express-openapi-validator/dist/middlewares/util.js";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { formatOverrides } from "../../spec/format-overrides.ts";
import { operationDocument } from "../../spec/operation-document.ts";
import type { SpecOperation } from "../../spec/operations.ts";
import { asObject, type SpecDocument } from "../../spec/spec-document.ts";

type ValidatorOptions = ConstructorParameters<typeof OpenApiValidator>[0];

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
    // Added after ajv-formats', in its place.
    formats: { ...formatOverrides },
    ignoreUndocumented: true,
    fileUploader: false,
  };
}

/**
 * Ajv's options as the validator sets them, and two that make compiling cheaper, which is most of
 * what the server does before it answers its first request:
 * - each schema's code is generated without Ajv's optimising pass over it. The pass only drops
 *   names the code does not need; V8 drops them as well once the code is hot, and a first compile
 *   takes some 30 % less without it;
 * - no meta-schema is added to each new Ajv (four per operation): schemas are not validated
 *   against one (`validateSchema: false`), and none refers to one.
 */
function cheaperToCompile<T extends object>(ajvOptions: T): T & { code: { optimize: false }; meta: false } {
  return { ...ajvOptions, code: { optimize: false }, meta: false };
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

/** An operation's documents and options as the validator's request and response steps take them. */
export interface OperationValidationInputs {
  /** The operation's document (validatorDocument), completed in place by the validator's preprocessor. */
  document: SpecDocument;
  /** The preprocessor's copy of the document that answers are checked against. */
  responseDocument: SpecDocument | undefined;
  /** The Ajv options of the request step and of the response step. */
  requestAjvOptions: object;
  responseAjvOptions: object;
  /** The validator's `validateResponses` option, as its ResponseValidator takes it. */
  validateResponses: unknown;
  /** The operation's responses in the response document, by status. */
  responses: Record<string, unknown>;
  /** The operation's name for its compiled response schemas in its Ajv's cache. */
  responseCacheKey: string;
}

/**
 * What the validator of one operation is made from: also what `npm run build` compiles the
 * first-called operations' response and request schemas from (scripts/build-response-validators.ts,
 * scripts/build-request-validators.ts).
 */
export function operationValidationInputs(
  spec: SpecDocument,
  operation: SpecOperation,
  options: { validateResponses: boolean; strictBodies: boolean },
): OperationValidationInputs {
  const document = validatorDocument(spec, operation);
  const validator = new OpenApiValidator(validatorOptions(document, options));
  // As installMiddleware does once the document is loaded: the preprocessor completes the
  // document in place and gives the copy responses are checked against.
  const { apiDocRes } = new SchemaPreprocessor(
    document as unknown as ConstructorParameters<typeof SchemaPreprocessor>[0],
    cheaperToCompile(validator.ajvOpts.preprocessor),
    validator.options.validateResponses as ConstructorParameters<typeof SchemaPreprocessor>[2],
  ).preProcess();
  const responseDocument = (apiDocRes ?? undefined) as unknown as SpecDocument | undefined;
  return {
    document,
    responseDocument,
    requestAjvOptions: cheaperToCompile(validator.ajvOpts.request),
    responseAjvOptions: cheaperToCompile(validator.ajvOpts.response),
    validateResponses: validator.options.validateResponses,
    responses: asObject(asObject(operationSchema(responseDocument, operation)).responses),
    responseCacheKey: `${operation.method}-${operation.key}`,
  };
}

/** The operation's object in a document's paths. */
export function operationSchema(document: unknown, operation: SpecOperation): unknown {
  return asObject(asObject(asObject(document).paths)[operation.key])[operation.method.toLowerCase()];
}

/** The operation's path as an Express route, such as `/v2/secure-payments/:token`. */
export function expressRouteOf(operation: SpecOperation): string {
  return operation.key.replace(/\{([^}]+)\}/g, ":$1");
}

/**
 * Where express-openapi-validator's RequestValidator keeps the operation's compiled request
 * schemas in each of its two Ajv instances: the key its `validate` makes of a request's method,
 * route and media type. Every request of an operation has the same one: parseJsonBody shows the
 * validator the operation's documented media type, or none when it takes no body.
 */
export function requestSchemaKey(operation: SpecOperation): string {
  const mediaType = operation.body && ContentType.fromString(operation.body.mediaType).normalize();
  return `${operation.method}-${expressRouteOf(operation)}-${mediaType ?? "not_provided"}`;
}
