import type { ErrorObject, ValidateFunction } from "ajv";
import { type BodyLimits, readBodyLimits } from "../../spec/body-limits.ts";
import type { OperationParameter, SpecOperation } from "../../spec/operations.ts";
import { createSpecAjv, type SpecAjv } from "../../spec/spec-ajv.ts";
import { resolveObject, type SpecDocument } from "../../spec/spec-document.ts";
import { nulCharacterMessage } from "../http/parse-json-body.ts";
import type { ResponseCheck } from "../http/request-state.ts";
import type { ValidatorIssue } from "./validation-issues.ts";

/** A request's inputs as the checks read them; `query` and `body` get their coerced values and defaults. */
export interface RequestInputs {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** undefined when the request has none. */
  body: unknown;
}

/** The checks of one operation, compiled from the spec at their first use. */
export interface OperationValidators {
  /** The limits its body's sizes are screened against before any value is checked (body-screen.ts). */
  readonly bodyLimits: BodyLimits | undefined;
  /** Every issue of the request's inputs, in the order the spec's checks find them; none when valid. */
  checkRequest(inputs: RequestInputs): ValidatorIssue[];
  /**
   * Throws, naming what is wrong, when an answer of this status and media type breaks the
   * operation's response schema or is of a status it does not document. 5xx answers pass.
   */
  checkResponse(status: number, mediaType: string | undefined, body: unknown): void;
  /** checkResponse of the answer being sent: its status and Content-Type as set on `res`. */
  readonly responseCheck: ResponseCheck;
}

/** The Ajv options of each check; those of requests are the ones OpenAPI validators agree on. */
const ajvOptions = {
  /** Query and path values arrive as text: `limit=5` is the integer 5. */
  parameters: { allErrors: true, coerceTypes: true, useDefaults: true },
  /** Without strictBodies, members of closed objects the screen could not reach are dropped too. */
  body: (strictBodies: boolean) => ({ allErrors: true, useDefaults: true, removeAdditional: !strictBodies }),
  responses: { allErrors: true },
};

/** The message of an Ajv error as validators word it for APIs: an enum lists what it allows. */
function messageOf(error: ErrorObject): string {
  const message = error.message ?? "is invalid";
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return error.keyword === "enum" && Array.isArray(allowed) ? `${message}: ${allowed.join(", ")}` : message;
}

/** Ajv's errors as issues at JSON Pointers under `prefix`: a missing or extra member is named in the path. */
export function toValidatorIssues(errors: readonly ErrorObject[], prefix: string): ValidatorIssue[] {
  return errors.map((error) => {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const member = params.missingProperty ?? params.additionalProperty;
    return {
      path: `${prefix}${error.instancePath}${member === undefined ? "" : `/${member}`}`,
      message: messageOf(error),
      errorCode: `${error.keyword}.openapi.validation`,
    };
  });
}

/** The schema of the operation's parameters in one location, as an object of them by name. */
function locationSchema(parameters: readonly OperationParameter[], location: OperationParameter["in"]) {
  const own = parameters.filter((parameter) => parameter.in === location);
  // Header names arrive in lower case.
  const nameOf = (parameter: OperationParameter) =>
    location === "header" ? parameter.name.toLowerCase() : parameter.name;
  return {
    type: "object",
    properties: Object.fromEntries(own.map((parameter) => [nameOf(parameter), parameter.schema])),
    required: own.filter((parameter) => parameter.required).map(nameOf),
  };
}

/**
 * The query names the operation does not document, or documents with an empty value, refused
 * before the schemas are checked, as OpenAPI validators refuse them: the first one found.
 */
function unknownQueryIssue(query: Record<string, unknown>, documented: ReadonlySet<string>) {
  for (const name in query) {
    if (!documented.has(name)) {
      return { path: `/query/${name}`, message: `Unknown query parameter '${name}'` };
    }
    if (query[name] === "") {
      return { path: `/query/${name}`, message: `Empty value found for query parameter '${name}'` };
    }
  }
  return undefined;
}

/**
 * What the schemas cannot say of a parameter's text, checked before them: no NUL character (the
 * PostgreSQL store could not keep it), and a number that is finite (`1e309` would become
 * Infinity, which Ajv's coercion lets past `minimum` and `maximum`).
 */
function parameterTextIssue(
  location: "path" | "query",
  name: string,
  value: unknown,
  numeric: boolean,
): ValidatorIssue | undefined {
  const texts = Array.isArray(value) ? value : [value];
  for (const text of texts) {
    if (typeof text !== "string") continue;
    if (text.includes("\u0000")) return { path: `/${location}/${name}`, message: nulCharacterMessage };
    if (numeric && text.trim() !== "" && !Number.isNaN(Number(text)) && !Number.isFinite(Number(text))) {
      return {
        path: `/${location}/${name}`,
        message: "must be a finite number",
        errorCode: "type.openapi.validation",
      };
    }
  }
  return undefined;
}

/** The media type of a Content-Type value, without its parameters, in lower case. */
const mediaTypeOf = (contentType: string) => (contentType.split(";")[0] as string).trim().toLowerCase();

/** The checks of `operation`, each compiled by its Ajv at its first use. */
function createOperationValidators(
  spec: SpecDocument,
  operation: SpecOperation,
  ajvs: { parameters: SpecAjv; body: SpecAjv; responses: SpecAjv },
  bodyLimits: BodyLimits | undefined,
): OperationValidators {
  const queryNames = new Set(operation.parameters.filter((p) => p.in === "query").map((p) => p.name));
  const numericNames = new Set(
    operation.parameters
      .filter((parameter) =>
        ["integer", "number"].includes(String(resolveObject(spec, parameter.schema).type)),
      )
      .map((parameter) => `${parameter.in}:${parameter.name}`),
  );
  const textIssues = (inputs: RequestInputs) => {
    const issues: ValidatorIssue[] = [];
    for (const location of ["path", "query"] as const) {
      for (const [name, value] of Object.entries(inputs[location])) {
        const issue = parameterTextIssue(location, name, value, numericNames.has(`${location}:${name}`));
        if (issue) issues.push(issue);
      }
    }
    return issues;
  };
  const hasHeaders = operation.parameters.some((parameter) => parameter.in === "header");
  let parameters: ValidateFunction | undefined;
  let body: ValidateFunction | undefined;
  const responses = new Map<string, Map<string, ValidateFunction>>();

  const compileParameters = () =>
    ajvs.parameters.compile({
      type: "object",
      properties: {
        path: locationSchema(operation.parameters, "path"),
        query: locationSchema(operation.parameters, "query"),
        ...(hasHeaders ? { headers: locationSchema(operation.parameters, "header") } : {}),
      },
    });

  /** The schemas of one documented status (or its range, or `default`), by media type. */
  const responseSchemas = (status: number) => {
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((candidate) =>
      Object.hasOwn(operation.responses, candidate),
    );
    if (key === undefined) return undefined;
    let byType = responses.get(key);
    if (!byType) {
      byType = new Map();
      for (const [mediaType, content] of Object.entries(operation.responses[key]?.content ?? {})) {
        if (content.schema !== undefined)
          byType.set(mediaType.toLowerCase(), ajvs.responses.compile(content.schema));
      }
      responses.set(key, byType);
    }
    return byType;
  };

  const validators: OperationValidators = {
    bodyLimits,
    checkRequest(inputs) {
      const unknown = unknownQueryIssue(inputs.query, queryNames);
      if (unknown) return [unknown];
      const refusedTexts = textIssues(inputs);
      if (refusedTexts.length > 0) return refusedTexts;
      parameters ??= compileParameters();
      const data = hasHeaders
        ? { path: inputs.path, query: inputs.query, headers: inputs.headers }
        : { path: inputs.path, query: inputs.query };
      const issues = parameters(data) ? [] : toValidatorIssues(parameters.errors ?? [], "");
      if (inputs.body !== undefined && operation.body) {
        body ??= ajvs.body.compile(operation.body.schema);
        if (!body(inputs.body)) issues.push(...toValidatorIssues(body.errors ?? [], "/body"));
      }
      return issues;
    },
    checkResponse(status, mediaType, answer) {
      if (status >= 500) return;
      const byType = responseSchemas(status);
      if (!byType) {
        throw new Error(`${operation.operationId} answered ${status}, which the spec does not document`);
      }
      if (byType.size === 0) return; // documented without content
      const check = (mediaType && byType.get(mediaTypeOf(mediaType))) || byType.values().next().value;
      if (check && !check(answer)) {
        const found = toValidatorIssues(check.errors ?? [], "/response");
        throw new Error(
          `${operation.operationId}'s ${status} answer breaks the spec: ${found.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
        );
      }
    },
    responseCheck: (_req, res, answer) => {
      const contentType = res.getHeader("content-type");
      validators.checkResponse(
        res.statusCode,
        contentType === undefined ? undefined : String(contentType),
        answer,
      );
    },
  };
  return validators;
}

/** Every operation's checks for one spec and one `strictBodies`, made as each operation is first called. */
export type OperationValidatorSet = (operation: SpecOperation) => OperationValidators;

const sets = new WeakMap<SpecDocument, Map<boolean, OperationValidatorSet>>();
const responseAjvs = new WeakMap<SpecDocument, SpecAjv>();

/**
 * The checks of `spec`'s operations, shared by every server of the process that validates against
 * the same spec object with the same `strictBodies`: checks keep nothing of a request, so servers
 * after the first (a test suite's, several instances on one database) find them compiled.
 */
export function operationValidatorsOf(spec: SpecDocument, strictBodies: boolean): OperationValidatorSet {
  let byStrictness = sets.get(spec);
  if (!byStrictness) {
    byStrictness = new Map();
    sets.set(spec, byStrictness);
  }
  let set = byStrictness.get(strictBodies);
  if (!set) {
    let responses = responseAjvs.get(spec);
    if (!responses) {
      responses = createSpecAjv(spec, ajvOptions.responses);
      responseAjvs.set(spec, responses);
    }
    const ajvs = {
      parameters: createSpecAjv(spec, ajvOptions.parameters),
      body: createSpecAjv(spec, ajvOptions.body(strictBodies)),
      responses,
    };
    const byOperation = new Map<string, OperationValidators>();
    set = (operation) => {
      let validators = byOperation.get(operation.operationId);
      if (!validators) {
        const limits = operation.body && readBodyLimits(spec, operation.body.schema);
        validators = createOperationValidators(spec, operation, ajvs, limits);
        byOperation.set(operation.operationId, validators);
      }
      return validators;
    };
    byStrictness.set(strictBodies, set);
  }
  return set;
}
