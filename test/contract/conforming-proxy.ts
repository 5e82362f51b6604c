import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { createSchemaValidator } from "../../src/spec/schema-validator.ts";
import type { SpecDocument } from "../../src/spec/spec-document.ts";
import { createPermitRule } from "./permit-rule.ts";

/**
 * A stand-in for a stateful server, to exercise the suite's stateful checks: the Prism mock behind a
 * proxy that adds what Prism lacks (one real API key, one client ID with allowed domains, unknown
 * ids, a body size limit, Problem answers to malformed JSON and empty query values, one cross-field
 * rule, recurring payout permits only their payer can sign). Ids other than the spec's examples
 * are unknown; everything else is Prism's answer.
 */
export interface ConformingProxy {
  baseUrl: string;
  apiKey: string;
  clientId: string;
  allowedOrigin: string;
  orchestratorKey: string;
  stop(): Promise<void>;
}

const apiKey = "proxy-api-key";
const clientId = "proxy-client-id";
const orchestratorKey = "orc_proxy_orchestrator_key";
const allowedOrigin = "https://app.example";
const bodyLimit = 1024 * 1024;
/** The sessions the proxy hands out when a user registers or a wallet signs in. */
const sessionPrefix = "proxy-session-";

function sendProblem(response: ServerResponse, status: number, title: string, detail: string) {
  const body = {
    type: `/problems/${status}`,
    title,
    status,
    detail,
    statusCode: status,
    error: title,
    message: detail,
  };
  response.writeHead(status, { "content-type": "application/problem+json", "x-request-id": "proxy-request" });
  response.end(JSON.stringify(body));
}

interface Route {
  operation: SpecOperation;
  pattern: RegExp;
  names: string[];
}

function compileRoutes(spec: SpecDocument): Route[] {
  return readPathOperations(spec).map((operation) => {
    const names: string[] = [];
    const source = operation.key.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { operation, pattern: new RegExp(`^${source}$`), names };
  });
}

/** The answer a conforming server gives before the request reaches Prism, or undefined to forward it. */
function rejectFirst(
  route: Route | undefined,
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  validator: ReturnType<typeof createSchemaValidator>,
  created: Set<string>,
): [number, string, string] | undefined {
  if (!route) return undefined;
  const { operation } = route;
  const key = request.headers["x-api-key"];
  const client = request.headers["x-client-id"];
  const origin = request.headers.origin;
  const session = /(?:^|;\s*)session_token=([^;]+)/.exec(request.headers.cookie ?? "")?.[1];
  const anonymous = key === undefined && (client === undefined || !operation.acceptsClientId);
  if (operation.acceptsAnonymous && anonymous) {
    // The sign-in operations and the health checks need no credential.
  } else if (operation.acceptsOrchestratorKey) {
    if (request.headers["x-orchestrator-key"] !== orchestratorKey)
      return [401, "Unauthorized", "no or unknown orchestrator key"];
  } else if (session !== undefined && operation.acceptsSession && key === undefined) {
    if (!session.startsWith(sessionPrefix)) return [401, "Unauthorized", "unknown session"];
  } else if (key !== undefined) {
    if (key !== apiKey || !operation.acceptsApiKey) return [401, "Unauthorized", "unknown API key"];
  } else if (client !== undefined && operation.acceptsClientId) {
    if (client !== clientId || origin === undefined)
      return [401, "Unauthorized", "unknown client ID or no Origin"];
    if (origin !== allowedOrigin) return [403, "Forbidden", `origin ${origin} is not allowed`];
  } else {
    return [401, "Unauthorized", "no credentials"];
  }
  if (body.length > bodyLimit) return [413, "Payload Too Large", "the body is larger than 1 MiB"];
  const isJson = (request.headers["content-type"] ?? "").startsWith("application/json");
  let parsed: unknown;
  if (operation.body && isJson && body.length > 0) {
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return [400, "Bad Request", "the body is not valid JSON"];
    }
  }
  for (const [name, value] of url.searchParams) {
    if (value === "") return [400, "Bad Request", `query parameter ${name} is empty`];
  }
  const requests = (parsed as { requests?: { paymentCurrency?: string }[] } | undefined)?.requests;
  if (Array.isArray(requests)) {
    const networks = new Set(
      requests.map((item) => String(item?.paymentCurrency).split("-").slice(1).join("-")),
    );
    if (networks.size > 1) return [400, "Bad Request", "all requests must pay on one network"];
  }
  const values = url.pathname.match(route.pattern)?.slice(1) ?? [];
  for (const [index, name] of route.names.entries()) {
    const parameter = operation.parameters.find((entry) => entry.in === "path" && entry.name === name);
    const value = decodeURIComponent(values[index] ?? "");
    const wellFormed = parameter !== undefined && validator.errorsFor(parameter.schema, value).length === 0;
    if (wellFormed && value !== String(parameter.example) && !created.has(value))
      return [404, "Not Found", `${name} ${value} is unknown`];
  }
  return undefined;
}

/** Credentials Prism takes for the operation: it checks only that the documented headers are there. */
function upstreamCredentials(route: Route | undefined): Record<string, string> {
  if (route?.operation.acceptsAnonymous) return {};
  if (route?.operation.acceptsOrchestratorKey) return { "x-orchestrator-key": "orc_any_key_value" };
  if (route === undefined || route.operation.acceptsApiKey) return { "x-api-key": "any" };
  if (route.operation.acceptsAnonymous) return {};
  if (!route.operation.acceptsClientId) return { cookie: `session_token=${sessionPrefix}any` };
  return { "x-client-id": "any", origin: allowedOrigin };
}

async function forward(
  upstream: string,
  route: Route | undefined,
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  response: ServerResponse,
  permits: ReturnType<typeof createPermitRule>,
): Promise<unknown> {
  const parsed = readJson(body);
  const headers: Record<string, string> = {
    ...upstreamCredentials(route),
    ...permits.headersFor(url.pathname, parsed),
  };
  const contentType = request.headers["content-type"];
  if (contentType !== undefined) headers["content-type"] = contentType;
  const answer = await fetch(upstream + url.pathname + url.search, {
    method: request.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body } : {}),
  });
  const copied: Record<string, string> = {};
  for (const name of ["content-type", "x-request-id"]) {
    const value = answer.headers.get(name);
    if (value !== null) copied[name] = value;
  }
  const text = await answer.text();
  const json = readJson(Buffer.from(text));
  const opensSession =
    (route?.operation.operationId === "registerUser" && answer.status === 201) ||
    (route?.operation.operationId === "verifyWalletChallenge" && answer.status === 200);
  if (opensSession)
    response.setHeader("set-cookie", `session_token=${sessionPrefix}${randomUUID()}; Path=/; HttpOnly`);
  response.writeHead(answer.status, copied);
  response.end(
    json && typeof json === "object" && !Array.isArray(json)
      ? JSON.stringify(permits.rewrite(url.pathname, parsed, json as Record<string, unknown>))
      : text,
  );
  return json;
}

/** The request ids a creation answered, which later calls may name. */
function createdRequestIds(answered: unknown): string[] {
  const requestIds = (answered as { requestIds?: unknown } | undefined)?.requestIds;
  return Array.isArray(requestIds) ? requestIds.map(String) : [];
}

function readJson(body: Buffer): unknown {
  try {
    return body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the proxy on a free port of 127.0.0.1 in front of a running Prism. */
export async function startConformingProxy(upstream: string, spec: SpecDocument): Promise<ConformingProxy> {
  const routes = compileRoutes(spec);
  const validator = createSchemaValidator(spec);
  const permits = createPermitRule();
  // The ids of the requests created through the proxy: known from then on, as on a real server.
  const created = new Set<string>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? "/", "http://proxy.local");
    const route = routes.find(
      (candidate) => candidate.operation.method === request.method && candidate.pattern.test(url.pathname),
    );
    const json = (request.headers["content-type"] ?? "").startsWith("application/json");
    const rejection =
      rejectFirst(route, request, url, body, validator, created) ??
      (json ? await permits.check(url.pathname, request.method ?? "GET", readJson(body)) : undefined);
    try {
      if (rejection) sendProblem(response, ...rejection);
      else
        for (const id of createdRequestIds(
          await forward(upstream, route, request, url, body, response, permits),
        ))
          created.add(id);
    } catch (error) {
      sendProblem(response, 502, "Bad Gateway", (error as Error).message);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    clientId,
    allowedOrigin,
    orchestratorKey,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
