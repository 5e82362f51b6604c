import { once } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodedBody, headersOf } from "../net/http-request.ts";
import { buildProblem } from "../problems/problem-catalogue.ts";
import { buildRouteTable } from "../server/http/route-table.ts";
import { reachableUrlHost } from "../server/reachable-host.ts";
import { operationValidatorsOf } from "../server/validation/operation-validators.ts";
import { credentialHeaders, readPathOperations } from "../spec/operations.ts";
import { createSchemaValidator } from "../spec/schema-validator.ts";
import { loadBundledSpec, type SpecDocument } from "../spec/spec-document.ts";
import { unmatchedPathNamer } from "../spec/unmatched-path.ts";
import type { CheckedCall, Violation } from "./checked-call.ts";
import { forwardCall, type UpstreamAnswer, type UpstreamFailure } from "./forward-call.ts";
import { judgeRequest } from "./judge-request.ts";
import { judgeResponse } from "./judge-response.ts";

export interface ValidatingProxyOptions {
  /** Where calls are passed on: an http(s) URL without credentials, maybe with a base path. */
  upstream: string;
  port?: number;
  host?: string;
  /** Time limit for the upstream's whole answer; 504 when it runs out (default 30 s). */
  timeoutMs?: number;
  /** Report body members the spec does not describe, as the server's strictBodies refuses them. */
  strictBodies?: boolean;
  /** The spec to check against (default generated/openapi.json). */
  spec?: SpecDocument;
  /** Called once per call, after the answer was sent to the client. */
  onCall(call: CheckedCall): void;
}

export interface RunningProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Headers whose values are credentials: never quoted in a violation. */
function secretHeaderNames(spec: SpecDocument): Set<string> {
  return new Set([
    ...Object.values(credentialHeaders(spec)),
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-request-network-signature",
  ]);
}

function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * The path and query of a request target: a client that uses the proxy as its HTTP proxy
 * (HTTP_PROXY) sends the absolute form, `http://api.example.com/v1/currencies`.
 */
function originForm(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

/** The upstream's answer as it came: status, reason phrase, headers and body bytes. */
function sendUpstreamAnswer(res: ServerResponse, answer: UpstreamAnswer): void {
  res.writeHead(answer.status, answer.statusMessage, answer.rawHeaders);
  res.end(answer.body);
}

/** The upstream's address for messages: scheme, host and path, never credentials or a query. */
function describeUpstream(upstream: URL): string {
  return `${upstream.origin}${upstream.pathname.replace(/\/+$/, "")}`;
}

/**
 * A proxy that passes every call on to the upstream, byte for byte, and checks the request and
 * the answer against the spec: the request with the reference server's validators, the answer
 * with the contract suite's verdict. It observes only: a request that breaks the spec is passed on
 * all the same, and the client gets the upstream's answer as it came.
 */
export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream);
  const upstreamName = describeUpstream(upstream);
  const spec = options.spec ?? loadBundledSpec();
  const operations = readPathOperations(spec);
  const routes = buildRouteTable(operations);
  const nameUnmatchedPath = unmatchedPathNamer(operations.map((operation) => operation.key));
  const strictBodies = options.strictBodies ?? false;
  const validatorsOf = operationValidatorsOf(spec, strictBodies);
  const validator = createSchemaValidator(spec);
  const secretHeaders = secretHeaderNames(spec);
  const isSecretHeader = (name: string) => secretHeaders.has(name.toLowerCase());
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readWhole(req);
    const method = req.method ?? "GET";
    const url = originForm(req.url ?? "/");
    const queryAt = url.indexOf("?");
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
    // A browser's CORS preflight is the upstream's business, not an operation of the spec: passed
    // on, not checked.
    if (method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
      const answer = await forwardCall(
        upstream,
        { method, url, rawHeaders: req.rawHeaders, body },
        timeoutMs,
      );
      if (answer.reached) sendUpstreamAnswer(res, answer);
      else sendFailure(res, answer, path);
      return;
    }
    const match = routes.match(method, path);
    const operation = match.kind === "operation" ? match.route : undefined;
    const violations: Violation[] = [];
    if (!operation) {
      const answers = match.kind === "wrong-method" ? ` (the path answers ${match.allowed.join(", ")})` : "";
      violations.push({ side: "request", member: "path", rule: `no operation of the spec${answers}` });
    } else {
      violations.push(
        ...judgeRequest(
          validatorsOf,
          operation,
          { pathParams: match.kind === "operation" ? match.params : {}, query, headers: req.headers, body },
          strictBodies,
        ),
      );
    }

    const answer = await forwardCall(upstream, { method, url, rawHeaders: req.rawHeaders, body }, timeoutMs);
    let status: number;
    let requestId: string | undefined;
    if (answer.reached) {
      sendUpstreamAnswer(res, answer);
      status = answer.status;
      requestId = headersOf(answer.rawHeaders).get("x-request-id") ?? undefined;
      if (operation) violations.push(...judgeAnswer(operation, answer, method === "HEAD"));
    } else {
      sendFailure(res, answer, path);
      status = answer.status;
      violations.push({ side: "upstream", member: upstreamName, rule: answer.reason });
    }
    options.onCall({
      operationId: operation?.operationId,
      method,
      path: operation?.key ?? nameUnmatchedPath(path),
      status,
      requestId,
      violations,
    });
  }

  /** The proxy's own Problem answer, naming the upstream; `instance` is the path the client asked for. */
  function sendFailure(res: ServerResponse, failure: UpstreamFailure, instance: string): void {
    const detail =
      failure.status === 502
        ? `The upstream ${upstreamName} could not be reached: ${failure.reason}.`
        : `The upstream ${upstreamName} did not answer in time: ${failure.reason}.`;
    const kind = failure.status === 502 ? "upstreamUnreachable" : "upstreamTimeout";
    res.writeHead(failure.status, { "content-type": "application/problem+json" });
    res.end(JSON.stringify(buildProblem(kind, detail, { instance })));
  }

  function judgeAnswer(
    operation: Parameters<typeof judgeResponse>[1],
    answer: UpstreamAnswer,
    head: boolean,
  ) {
    const headers = headersOf(answer.rawHeaders);
    let text: string;
    try {
      text = new TextDecoder().decode(decodedBody(answer.body, headers.get("content-encoding") ?? undefined));
    } catch {
      return [
        {
          side: "response" as const,
          member: "header content-encoding",
          rule: `the body cannot be decoded as ${headers.get("content-encoding")}`,
        },
      ];
    }
    return judgeResponse(
      validator,
      operation,
      { status: answer.status, headers, text },
      { head, isSecretHeader },
    );
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      // The proxy's own failure (a client that went away mid-request among them): said if it can be.
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`payreq proxy: ${error.message}`);
      }
    });
  });
  server.listen(options.port ?? 4020, options.host ?? "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${reachableUrlHost(options.host ?? "127.0.0.1")}:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
