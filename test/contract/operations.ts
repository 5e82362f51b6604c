import {
  isObject,
  type JsonObject,
  listOperations,
  resolveNode,
  type SpecDocument,
} from "../support/spec-document.ts";

export type ParameterLocation = "path" | "query" | "header";

export interface OperationParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: unknown;
  example?: unknown;
}

export interface NamedExample {
  name: string;
  value: unknown;
}

export interface OperationBody {
  required: boolean;
  mediaType: string;
  schema: unknown;
  examples: NamedExample[];
}

export interface MediaTypeSpec {
  schema?: unknown;
}

export interface ResponseSpec {
  headers: Record<string, { required: boolean; schema: unknown }>;
  content: Record<string, MediaTypeSpec>;
}

/** One operation of the document's `paths`, with every reference resolved that the suite needs. */
export interface OperationUnderTest {
  operationId: string;
  method: string;
  pathTemplate: string;
  parameters: OperationParameter[];
  body?: OperationBody;
  responses: Record<string, ResponseSpec>;
  acceptsApiKey: boolean;
  acceptsClientId: boolean;
}

function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function readParameters(spec: SpecDocument, raw: unknown[]): OperationParameter[] {
  return raw.map((entry) => {
    const parameter = asObject(resolveNode(spec, entry));
    const location = parameter.in;
    if (location !== "path" && location !== "query" && location !== "header") {
      throw new Error(
        `parameter ${String(parameter.name)} is in "${String(location)}", which is not handled`,
      );
    }
    const schema = parameter.schema ?? {};
    const example = parameter.example ?? asObject(resolveNode(spec, schema)).examples;
    return {
      name: String(parameter.name),
      in: location,
      required: parameter.required === true,
      schema,
      ...(parameter.example !== undefined
        ? { example: parameter.example }
        : Array.isArray(example) && example.length > 0
          ? { example: example[0] }
          : {}),
    };
  });
}

function readExamples(spec: SpecDocument, mediaType: JsonObject): NamedExample[] {
  const named = Object.entries(asObject(mediaType.examples)).map(([name, entry]) => ({
    name,
    value: asObject(resolveNode(spec, entry)).value,
  }));
  if (named.length > 0) return named;
  return mediaType.example !== undefined ? [{ name: "example", value: mediaType.example }] : [];
}

function readBody(spec: SpecDocument, raw: unknown): OperationBody | undefined {
  if (raw === undefined) return undefined;
  const body = asObject(resolveNode(spec, raw));
  const [mediaType, content] = Object.entries(asObject(body.content))[0] ?? [];
  if (mediaType === undefined) return undefined;
  const media = asObject(content);
  return {
    required: body.required === true,
    mediaType,
    schema: media.schema ?? {},
    examples: readExamples(spec, media),
  };
}

function readResponses(spec: SpecDocument, raw: unknown): Record<string, ResponseSpec> {
  const responses: Record<string, ResponseSpec> = {};
  for (const [status, entry] of Object.entries(asObject(raw))) {
    const response = asObject(resolveNode(spec, entry));
    const headers: ResponseSpec["headers"] = {};
    for (const [name, header] of Object.entries(asObject(response.headers))) {
      const resolved = asObject(resolveNode(spec, header));
      headers[name.toLowerCase()] = { required: resolved.required === true, schema: resolved.schema ?? {} };
    }
    const content: ResponseSpec["content"] = {};
    for (const [mediaType, media] of Object.entries(asObject(response.content))) {
      content[mediaType] = { schema: asObject(media).schema };
    }
    responses[status] = { headers, content };
  }
  return responses;
}

const apiKeyHeader = "x-api-key";
const clientIdHeader = "x-client-id";

/** True when a security requirement is met by exactly these headers (the schemes are header API keys). */
function requiresOnly(spec: SpecDocument, requirement: JsonObject, ...headers: string[]): boolean {
  const schemes = asObject(asObject(spec.components).securitySchemes);
  const names = Object.keys(requirement).map((scheme) => {
    const definition = asObject(schemes[scheme]);
    return definition.in === "header" ? String(definition.name).toLowerCase() : `${scheme} (not a header)`;
  });
  return names.length === headers.length && headers.every((header) => names.includes(header));
}

/** Every operation under `paths`, in document order. */
export function listOperationsUnderTest(spec: SpecDocument): OperationUnderTest[] {
  const rootSecurity = Array.isArray(spec.security) ? spec.security : [];
  return listOperations(spec)
    .filter((entry) => entry.kind === "path")
    .map(({ key, method, operation }) => {
      const pathItem = asObject(resolveNode(spec, asObject(spec.paths)[key]));
      const inherited = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      // Operation-level parameters override path-level ones with the same name and location.
      const parameters = new Map<string, OperationParameter>();
      for (const parameter of readParameters(spec, [...inherited, ...own])) {
        parameters.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      const security = (Array.isArray(operation.security) ? operation.security : rootSecurity).map(asObject);
      const body = readBody(spec, operation.requestBody);
      return {
        operationId: String(operation.operationId ?? `${method} ${key}`),
        method: method.toUpperCase(),
        pathTemplate: key,
        parameters: [...parameters.values()],
        ...(body ? { body } : {}),
        responses: readResponses(spec, operation.responses),
        acceptsApiKey: security.some((requirement) => requiresOnly(spec, requirement, apiKeyHeader)),
        acceptsClientId: security.some((requirement) =>
          requiresOnly(spec, requirement, clientIdHeader, "origin"),
        ),
      };
    });
}

/** Whether the operation documents a status, exactly or through a range such as `4XX`. */
export function isDocumented(operation: OperationUnderTest, status: number): boolean {
  return status in operation.responses || `${String(status)[0]}XX` in operation.responses;
}

export function responseFor(operation: OperationUnderTest, status: number): ResponseSpec | undefined {
  return (
    operation.responses[status] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses.default
  );
}

export function documentedClientErrors(operation: OperationUnderTest): number[] {
  return Object.keys(operation.responses)
    .map(Number)
    .filter((status) => status >= 400 && status < 500);
}
