import type { ErrorObject } from "ajv";
import type { OperationParameter, SpecOperation } from "../spec/operations.ts";
import type { SchemaValidator } from "../spec/schema-validator.ts";
import { isObject, type SpecDocument } from "../spec/spec-document.ts";
import { listBreakages, resolveSchema, schemaBranches } from "./schema-breakage.ts";
import { type ContractRequest, jsonBody, type ValidCall } from "./valid-inputs.ts";

/** What a conforming server answers to an invalid request. */
export type ExpectedRejection =
  | "validation"
  | "invalid-path-value"
  | "malformed-json"
  | "unsupported-media-type"
  | "payload-too-large";

export interface InvalidInput {
  check: string;
  request: ContractRequest;
  expect: ExpectedRejection;
  /** Set for a body with a member the spec does not describe: refused only by a strict target. */
  unknownMember?: true;
  /** Why a stateless mock cannot be checked on this input at all (the input is not sent to it). */
  needsState?: string;
  /** What a stateless mock is known to answer instead (the input is still sent). */
  mockShortfall?: string;
}

export const oversizedBodyBytes = 1024 * 1024 + 1;
const unknownFieldName = "unexpectedField";

const emptyQueryShortfall = "Prism 5.14.2 treats an empty query value as absent and does not validate it";
const malformedJsonShortfall =
  'Prism 5.14.2 answers malformed JSON with 400 and its own application/json body {"error":{"code":"invalid_json"}}, not a Problem';

type JsonPointer = (string | number)[];

function pointerText(pointer: JsonPointer): string {
  return pointer.length === 0 ? "(root)" : `/${pointer.join("/")}`;
}

/** A copy of `root` with the value at `pointer` replaced, or removed when `value` is `remove`. */
const remove = Symbol("remove");
function withValueAt(root: unknown, pointer: JsonPointer, value: unknown): unknown {
  if (pointer.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const token of pointer.slice(0, -1)) parent = parent[token] as Record<string | number, unknown>;
  const last = pointer[pointer.length - 1] as string | number;
  if (value === remove) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** The schema that applies to an object value: its own keywords plus those of the branches it matches. */
function effectiveObjectSchema(
  spec: SpecDocument,
  validator: SchemaValidator,
  schema: unknown,
  value: unknown,
): { properties: Record<string, unknown>; required: string[]; closed: boolean } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let closed = false;
  for (const [index, branch] of schemaBranches(spec, schema).entries()) {
    // The first entry is the schema itself; the others count only where the value matches them.
    if (index > 0 && validator.errorsFor(branch, value).length > 0) continue;
    Object.assign(properties, isObject(branch.properties) ? branch.properties : {});
    if (Array.isArray(branch.required)) required.push(...branch.required.map(String));
    if (branch.additionalProperties === false) closed = true;
  }
  return { properties, required: [...new Set(required)], closed };
}

interface BodyMutation {
  check: string;
  unknownMember?: true;
  /** Where the mutation is: the broken value, the missing field or the unknown field. */
  pointer: JsonPointer;
  value: unknown;
}

/**
 * Walks a valid body with its schema and lists one invalid body per missing required field, per
 * broken constraint of every property (present in the example or not) and per closed object.
 */
function listBodyMutations(
  spec: SpecDocument,
  validator: SchemaValidator,
  rootSchema: unknown,
  rootValue: unknown,
): BodyMutation[] {
  const mutations: BodyMutation[] = [];
  const visit = (schema: unknown, value: unknown, pointer: JsonPointer) => {
    for (const breakage of listBreakages(spec, schema, value)) {
      const label = breakage.constraint === "type" ? "wrong type" : `breaks ${breakage.constraint}`;
      mutations.push({
        check: `body ${pointerText(pointer)}: ${label}`,
        pointer,
        value: withValueAt(rootValue, pointer, breakage.value),
      });
    }
    if (value === undefined) return;
    if (isObject(value)) {
      const { properties, required, closed } = effectiveObjectSchema(spec, validator, schema, value);
      for (const name of required.filter((field) => field in value)) {
        const at = [...pointer, name];
        mutations.push({
          check: `body ${pointerText(at)}: missing (required)`,
          pointer: at,
          value: withValueAt(rootValue, at, remove),
        });
      }
      if (closed) {
        const at = [...pointer, unknownFieldName];
        mutations.push({
          check: `body ${pointerText(pointer)}: unknown field ${unknownFieldName}`,
          unknownMember: true,
          pointer: at,
          value: withValueAt(rootValue, at, "x"),
        });
      }
      for (const [name, child] of Object.entries(properties)) visit(child, value[name], [...pointer, name]);
    } else if (Array.isArray(value) && value.length > 0) {
      const items = resolveSchema(spec, schema).items;
      if (items !== undefined) visit(items, value[0], [...pointer, 0]);
    }
  };
  visit(rootSchema, rootValue, []);
  return mutations;
}

/**
 * True when the errors point at the mutated place (or inside it), so the input is invalid for the
 * reason its check names and not for another one.
 */
function errorsBlame(errors: ErrorObject[], pointer: JsonPointer): boolean {
  const target = pointer.length === 0 ? "" : `/${pointer.join("/")}`;
  return errors.some((error) => {
    const field = error.params.missingProperty ?? error.params.additionalProperty;
    const location = typeof field === "string" ? `${error.instancePath}/${field}` : error.instancePath;
    return location === target || location.startsWith(`${target}/`);
  });
}

/** A string parameter value as the server will read it, for validation. */
function coerceParameter(schema: unknown, spec: SpecDocument, text: string): unknown {
  const type = resolveSchema(spec, schema).type;
  if ((type === "integer" || type === "number") && text.trim() !== "" && !Number.isNaN(Number(text))) {
    return Number(text);
  }
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

function parameterBag(request: ContractRequest, parameter: OperationParameter): Record<string, string> {
  return parameter.in === "path" ? request.path : parameter.in === "query" ? request.query : request.headers;
}

function withParameter(request: ContractRequest, parameter: OperationParameter, text: string | undefined) {
  const copy: ContractRequest = {
    ...request,
    path: { ...request.path },
    query: { ...request.query },
    headers: { ...request.headers },
  };
  const bag = parameterBag(copy, parameter);
  if (text === undefined) delete bag[parameter.name];
  else bag[parameter.name] = text;
  return copy;
}

function listParameterInputs(
  spec: SpecDocument,
  validator: SchemaValidator,
  operation: SpecOperation,
  request: ContractRequest,
): InvalidInput[] {
  const inputs: InvalidInput[] = [];
  for (const parameter of operation.parameters) {
    const where = `${parameter.in} ${parameter.name}`;
    if (parameter.required && parameter.in !== "path") {
      inputs.push({
        check: `${where}: missing (required)`,
        request: withParameter(request, parameter, undefined),
        expect: "validation",
      });
    }
    const onTheWire = resolveSchema(spec, parameter.schema).type;
    for (const breakage of listBreakages(spec, parameter.schema, parameter.example)) {
      if (typeof breakage.value === "object") continue;
      // Every parameter is text on the wire: a wrong type only exists for numbers and booleans.
      if (breakage.constraint === "type" && (onTheWire === undefined || onTheWire === "string")) continue;
      const text = String(breakage.value);
      // An empty path segment changes the route instead of the parameter.
      if (parameter.in === "path" && text === "") continue;
      if (validator.errorsFor(parameter.schema, coerceParameter(parameter.schema, spec, text)).length === 0)
        continue;
      const label = breakage.constraint === "type" ? "wrong type" : `breaks ${breakage.constraint}`;
      inputs.push({
        check: `${where}: ${label}`,
        request: withParameter(request, parameter, text),
        expect: parameter.in === "path" ? "invalid-path-value" : "validation",
        ...(parameter.in === "query" && text === "" ? { mockShortfall: emptyQueryShortfall } : {}),
      });
    }
  }
  return inputs;
}

function listBodyInputs(
  spec: SpecDocument,
  validator: SchemaValidator,
  operation: SpecOperation,
  valid: ValidCall,
): InvalidInput[] {
  const body = operation.body;
  const validText = valid.request.body?.text;
  if (!body || validText === undefined) return [];
  const withBody = (text: string | undefined, contentType = body.mediaType): ContractRequest => {
    const { body: _omitted, ...rest } = valid.request;
    return text === undefined ? rest : { ...rest, body: { contentType, text } };
  };
  const inputs: InvalidInput[] = [];
  if (body.required)
    inputs.push({ check: "body: missing", request: withBody(undefined), expect: "validation" });
  for (const mutation of listBodyMutations(spec, validator, body.schema, valid.bodyValue)) {
    if (!errorsBlame(validator.errorsFor(body.schema, mutation.value), mutation.pointer)) continue;
    inputs.push({
      check: mutation.check,
      request: withBody(jsonBody(mutation.value).text),
      expect: "validation",
      ...(mutation.unknownMember ? { unknownMember: true as const } : {}),
    });
  }
  inputs.push(
    {
      check: "body: malformed JSON",
      request: withBody(validText.slice(0, -1)),
      expect: "malformed-json",
      mockShortfall: malformedJsonShortfall,
    },
    {
      check: "body: wrong content type text/plain",
      request: withBody(validText, "text/plain"),
      expect: "unsupported-media-type",
    },
    {
      check: "body: over 1 MiB (valid JSON padded with spaces)",
      request: withBody(validText + " ".repeat(oversizedBodyBytes - validText.length)),
      expect: "payload-too-large",
      needsState: "Prism has no body size limit: it accepts the padded body",
    },
  );
  return inputs;
}

/**
 * The invalid inputs of an operation, derived from its schemas: each required parameter or field
 * missing, each constraint broken, unknown fields, wrong types, malformed JSON, a wrong content type
 * and an oversized body. Every derived body is confirmed invalid against the spec before it is listed.
 */
export function listInvalidInputs(
  spec: SpecDocument,
  validator: SchemaValidator,
  operation: SpecOperation,
  valid: ValidCall,
): InvalidInput[] {
  return [
    ...listParameterInputs(spec, validator, operation, valid.request),
    ...listBodyInputs(spec, validator, operation, valid),
  ];
}
