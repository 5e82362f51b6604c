import {
  asObject,
  isObject,
  type JsonObject,
  loadBundledSpec,
  resolveObject,
  type SpecDocument,
} from "./spec-document.ts";

export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

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

export interface ResponseSpec {
  /** Header names in lower case. */
  headers: Record<string, { required: boolean; schema: unknown }>;
  content: Record<string, { schema?: unknown; examples: NamedExample[] }>;
}

/** The security schemes by the role code gives them; each is a header API key in this spec. */
export const securitySchemeNames = {
  apiKey: "ApiKeyAuth",
  clientId: "ClientIdAuth",
  origin: "ClientOrigin",
  orchestratorKey: "OrchestratorKeyAuth",
} as const;

export type CredentialRole = keyof typeof securitySchemeNames;

/** The Auth API's client ID scheme: the same header as `ClientIdAuth`, checked the same way. */
export const authClientIdSchemeName = "client_id";

/** The Auth API's session: a cookie, set by signing in. */
export const sessionSchemeName = "session_token";

/** The same session's token as `Authorization: Bearer <token>`, where an operation lists it. */
export const sessionBearerSchemeName = "session_bearer";

/** The name of the session cookie, from the spec's `session_token` scheme. */
export function sessionCookieName(document: SpecDocument = loadBundledSpec()): string {
  const scheme = asObject(asObject(asObject(document.components).securitySchemes)[sessionSchemeName]);
  if (scheme.type !== "apiKey" || scheme.in !== "cookie" || typeof scheme.name !== "string") {
    throw new Error(`security scheme ${sessionSchemeName} must be an apiKey in a cookie`);
  }
  return scheme.name;
}

/** One operation of the document's `paths` or `webhooks`, with its references resolved. */
export interface SpecOperation {
  kind: "path" | "webhook";
  /** The path template (`/v2/request/{requestId}/pay`) or the webhook's event name. */
  key: string;
  /** Upper case, as on the wire: `GET`. */
  method: string;
  operationId: string;
  /** The operation object as written, for readers that need more than the fields below. */
  operation: JsonObject;
  parameters: OperationParameter[];
  /** Names of the path parameters in template order. */
  pathParams: string[];
  body?: OperationBody;
  responses: Record<string, ResponseSpec>;
  /** The documented success status (the operation's one 2xx); undefined when it has none. */
  successStatus: number | undefined;
  /** Each credential set that is accepted, as the header names (lower case) it needs together. */
  credentials: string[][];
  acceptsApiKey: boolean;
  /** A client ID with `Origin` (`ClientIdAuth`, or the Auth API's `client_id`). */
  acceptsClientId: boolean;
  /** Takes an orchestrator key alone (the orchestrator operations). */
  acceptsOrchestratorKey: boolean;
  /** Takes an orchestrator key paired with a client ID and its Origin (the secure payment creations). */
  acceptsOrchestratorKeyWithClientId: boolean;
  /** The Auth API's `session_token` cookie. */
  acceptsSession: boolean;
  /** The same session's token as `Authorization: Bearer` (`session_bearer`). */
  acceptsSessionBearer: boolean;
  /** No credential needed: `security: []`, or an empty requirement (`{}`) among the alternatives. */
  acceptsAnonymous: boolean;
}

/** The header each security scheme of `securitySchemeNames` is sent in, in lower case. */
export function credentialHeaders(
  document: SpecDocument = loadBundledSpec(),
): Record<CredentialRole, string> {
  const schemes = asObject(asObject(document.components).securitySchemes);
  const headerOf = (role: CredentialRole) => {
    const scheme = asObject(schemes[securitySchemeNames[role]]);
    if (scheme.type !== "apiKey" || scheme.in !== "header" || typeof scheme.name !== "string") {
      throw new Error(`security scheme ${securitySchemeNames[role]} must be an apiKey in a header`);
    }
    return scheme.name.toLowerCase();
  };
  const headers = {
    apiKey: headerOf("apiKey"),
    clientId: headerOf("clientId"),
    origin: headerOf("origin"),
    orchestratorKey: headerOf("orchestratorKey"),
  };
  const authClientId = asObject(schemes[authClientIdSchemeName]);
  if (authClientId.type !== undefined && String(authClientId.name).toLowerCase() !== headers.clientId) {
    throw new Error(
      `security scheme ${authClientIdSchemeName} must name the header of ${securitySchemeNames.clientId}`,
    );
  }
  return headers;
}

function readParameter(document: SpecDocument, entry: unknown): OperationParameter {
  const parameter = resolveObject(document, entry);
  const location = parameter.in;
  if (location !== "path" && location !== "query" && location !== "header") {
    throw new Error(`parameter ${String(parameter.name)} is in "${String(location)}", which is not handled`);
  }
  const schema = parameter.schema ?? {};
  const schemaExamples = resolveObject(document, schema).examples;
  const example =
    parameter.example !== undefined
      ? parameter.example
      : Array.isArray(schemaExamples) && schemaExamples.length > 0
        ? schemaExamples[0]
        : undefined;
  return {
    name: String(parameter.name),
    in: location,
    required: parameter.required === true,
    schema,
    ...(example === undefined ? {} : { example }),
  };
}

function readExamples(document: SpecDocument, mediaType: JsonObject): NamedExample[] {
  const named = Object.entries(asObject(mediaType.examples)).map(([name, entry]) => ({
    name,
    value: resolveObject(document, entry).value,
  }));
  if (named.length > 0) return named;
  return mediaType.example !== undefined ? [{ name: "example", value: mediaType.example }] : [];
}

/**
 * A media type's schema, with its examples read at their first use: most servers never read an
 * example, and resolving every operation's at start was a tenth of the server's start.
 */
class MediaContent {
  #examples: NamedExample[] | undefined;

  constructor(
    readonly schema: unknown,
    private readonly document: SpecDocument,
    private readonly media: JsonObject,
  ) {}

  get examples(): NamedExample[] {
    this.#examples ??= readExamples(this.document, this.media);
    return this.#examples;
  }
}

class BodyContent extends MediaContent implements OperationBody {
  constructor(
    readonly required: boolean,
    readonly mediaType: string,
    schema: unknown,
    document: SpecDocument,
    media: JsonObject,
  ) {
    super(schema, document, media);
  }
}

function readBody(document: SpecDocument, raw: unknown): OperationBody | undefined {
  if (raw === undefined) return undefined;
  const body = resolveObject(document, raw);
  const [mediaType, content] = Object.entries(asObject(body.content))[0] ?? [];
  if (mediaType === undefined) return undefined;
  const media = asObject(content);
  return new BodyContent(body.required === true, mediaType, media.schema ?? {}, document, media);
}

function readResponses(document: SpecDocument, raw: unknown): Record<string, ResponseSpec> {
  const responses: Record<string, ResponseSpec> = {};
  for (const [status, entry] of Object.entries(asObject(raw))) {
    const response = resolveObject(document, entry);
    const headers: ResponseSpec["headers"] = {};
    for (const [name, header] of Object.entries(asObject(response.headers))) {
      const resolved = resolveObject(document, header);
      headers[name.toLowerCase()] = { required: resolved.required === true, schema: resolved.schema ?? {} };
    }
    const content: ResponseSpec["content"] = {};
    for (const [mediaType, media] of Object.entries(asObject(response.content))) {
      content[mediaType] = new MediaContent(asObject(media).schema, document, asObject(media));
    }
    responses[status] = { headers, content };
  }
  return responses;
}

function readCredentials(document: SpecDocument, requirements: string[][]): string[][] {
  const schemes = asObject(asObject(document.components).securitySchemes);
  return requirements.map((requirement) =>
    requirement.map((scheme) => {
      const definition = asObject(schemes[scheme]);
      // A cookie travels in the Cookie header, an HTTP bearer token in Authorization.
      if (definition.in === "cookie" && typeof definition.name === "string") return "cookie";
      if (definition.type === "http" && definition.scheme === "bearer") return "authorization";
      if (definition.in !== "header" || typeof definition.name !== "string") {
        throw new Error(
          `security scheme ${scheme} is not a header, a cookie or a bearer token, which is not handled`,
        );
      }
      return definition.name.toLowerCase();
    }),
  );
}

function successStatusOf(operationId: string, responses: Record<string, ResponseSpec>): number | undefined {
  const success = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
  if (success.length > 1) {
    throw new Error(`operation ${operationId} documents several success statuses (${success.join(", ")})`);
  }
  return success[0] === undefined ? undefined : Number(success[0]);
}

/** Every operation of the document's paths and webhooks, in document order. */
export function readOperations(document: SpecDocument = loadBundledSpec()): SpecOperation[] {
  const rootSecurity = Array.isArray(document.security) ? document.security : [];
  const entries: SpecOperation[] = [];
  for (const kind of ["path", "webhook"] as const) {
    const items = asObject(document[kind === "path" ? "paths" : "webhooks"]);
    for (const [key, rawItem] of Object.entries(items)) {
      const item = resolveObject(document, rawItem);
      const inherited = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of httpMethods) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const operationId = String(operation.operationId ?? `${method.toUpperCase()} ${key}`);
        const own = Array.isArray(operation.parameters) ? operation.parameters : [];
        // Operation-level parameters override path-level ones with the same name and location.
        const parameters = new Map<string, OperationParameter>();
        for (const parameter of [...inherited, ...own].map((entry) => readParameter(document, entry))) {
          parameters.set(`${parameter.in}:${parameter.name}`, parameter);
        }
        const security = Array.isArray(operation.security) ? operation.security : rootSecurity;
        const requirements =
          kind === "path" ? security.map((requirement) => Object.keys(asObject(requirement))) : [];
        const body = readBody(document, operation.requestBody);
        const responses = readResponses(document, operation.responses);
        entries.push({
          kind,
          key,
          method: method.toUpperCase(),
          operationId,
          operation,
          parameters: [...parameters.values()],
          pathParams:
            kind === "path" ? [...key.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string) : [],
          ...(body ? { body } : {}),
          responses,
          successStatus: successStatusOf(operationId, responses),
          credentials: readCredentials(document, requirements),
          acceptsApiKey: requirements.some(
            (set) => set.length === 1 && set[0] === securitySchemeNames.apiKey,
          ),
          acceptsClientId: requirements.some(
            (set) => set.includes(securitySchemeNames.clientId) || set.includes(authClientIdSchemeName),
          ),
          acceptsOrchestratorKey: requirements.some(
            (set) => set.length === 1 && set[0] === securitySchemeNames.orchestratorKey,
          ),
          acceptsOrchestratorKeyWithClientId: requirements.some(
            (set) =>
              set.includes(securitySchemeNames.orchestratorKey) && set.includes(securitySchemeNames.clientId),
          ),
          acceptsSession: requirements.some((set) => set.length === 1 && set[0] === sessionSchemeName),
          acceptsSessionBearer: requirements.some(
            (set) => set.length === 1 && set[0] === sessionBearerSchemeName,
          ),
          acceptsAnonymous:
            kind === "path" && (requirements.length === 0 || requirements.some((set) => set.length === 0)),
        });
      }
    }
  }
  return entries;
}

/** The operations of the document's `paths`: the ones a server answers. */
export function readPathOperations(document: SpecDocument = loadBundledSpec()): SpecOperation[] {
  return readOperations(document).filter((entry) => entry.kind === "path");
}

/** Whether the operation documents a status, exactly or through a range such as `4XX`. */
export function isDocumented(operation: SpecOperation, status: number): boolean {
  return status in operation.responses || `${String(status)[0]}XX` in operation.responses;
}

export function responseFor(operation: SpecOperation, status: number): ResponseSpec | undefined {
  return (
    operation.responses[status] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses.default
  );
}

export function documentedClientErrors(operation: SpecOperation): number[] {
  return Object.keys(operation.responses)
    .map(Number)
    .filter((status) => status >= 400 && status < 500);
}
