import { judgeAnswer } from "../../src/contract/answer-verdict.ts";
import { type AnswerHeaders, requestText } from "../../src/net/http-request.ts";
import { buildRouteTable } from "../../src/server/http/route-table.ts";
import {
  ConfigError,
  type CreateServerOptions,
  createDefaultConfig,
  createFixedClock,
  createServer,
  type PayreqServer,
  parseConfig,
  type RunningServer,
  sampleCredentials,
} from "../../src/server/index.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";

export const apiKey = sampleCredentials.apiKey;
export const clientId = sampleCredentials.clientId;
export const browserOrigin = "http://localhost:5173";
export const startInstant = "2026-04-12T10:00:00.000Z";

export const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
export const payer = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";
export const feeAddress = "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984";

export interface Answer<T = unknown> {
  status: number;
  headers: AnswerHeaders;
  body: T;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON and content-type tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** `apiKey` (default), `none`, or a client ID call from `browserOrigin`. */
  auth?: "apiKey" | "none" | "clientId";
  /** How long to wait for the answer before failing (60 s by default). */
  timeoutMs?: number;
}

export interface TestServer {
  server: PayreqServer;
  running: RunningServer;
  url: string;
  /** The base clock under the sandbox clock: stands still unless set. */
  clock: ReturnType<typeof createFixedClock>;
  loggedErrors: string[];
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers freely; their assertions check the shape
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  close(): Promise<void>;
}

/**
 * Starts a server on a free port of 127.0.0.1, on a clock that stands still at `startInstant`.
 * Each operation's checks compile at its first request, so a test file pays only for the
 * operations it calls.
 */
export async function startTestServer(options: CreateServerOptions = {}): Promise<TestServer> {
  const clock = createFixedClock(startInstant);
  const loggedErrors: string[] = [];
  const server = createServer({
    clock,
    logger: { error: (message) => loggedErrors.push(message) },
    ...options,
  });
  const running = await server.listen({ port: 0, host: "127.0.0.1" });
  // Every answer, error answers included, must be one the spec documents for its operation; only a
  // server whose response validation is switched off may answer otherwise.
  const checkAnswers = options.validateResponses !== false && options.spec === undefined;
  const call = async (method: string, path: string, callOptions: CallOptions = {}) => {
    const headers: Record<string, string> = {};
    const auth = callOptions.auth ?? "apiKey";
    if (auth === "apiKey") headers["x-api-key"] = apiKey;
    if (auth === "clientId") {
      headers["x-client-id"] = clientId;
      headers.origin = browserOrigin;
    }
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(callOptions.body);
    }
    Object.assign(headers, callOptions.headers);
    const response = await requestText(new URL(`${running.url}${path}`), {
      method,
      headers,
      body,
      timeoutMs: callOptions.timeoutMs ?? 60_000,
    });
    const text = response.text;
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    const answer = { status: response.status, headers: response.headers, body: parsed, text };
    // A HEAD answer has the GET's status and headers but no body to check.
    if (checkAnswers && method !== "HEAD") {
      const issues = answerIssues(method, path, answer);
      if (issues.length > 0)
        throw new Error(`${method} ${path} answered outside the spec: ${issues.join("; ")}`);
    }
    // biome-ignore lint/suspicious/noExplicitAny: see TestServer.call
    return answer as Answer<any>;
  };
  return { server, running, url: running.url, clock, loggedErrors, call, close: () => running.close() };
}

/** The API key of the second account that `startTestServerWithOtherAccount` adds. */
export const otherAccountKey = "sk_other_account_0000000099";
/** Call options that present the second account's API key instead of the sandbox one. */
export const asOtherAccount = {
  auth: "none",
  headers: { "x-api-key": otherAccountKey },
} as const satisfies CallOptions;

/** A test server with a second account, to check that no account reaches another's records. */
export function startTestServerWithOtherAccount(): Promise<TestServer> {
  const config = createDefaultConfig();
  config.accounts.push({
    id: "acct_other",
    apiKeys: [otherAccountKey],
    webhookSecret: "whsec_other_account_99",
    clientIds: [],
  });
  return startTestServer({ config });
}

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const routes = buildRouteTable(readPathOperations(spec));

/** How an answer departs from the spec: an undocumented status, header, content type or body. */
function answerIssues(method: string, path: string, answer: Answer): string[] {
  const match = routes.match(method, new URL(path, "http://server.test").pathname);
  // The spec also documents the real service's own error body; the reference server sends Problems only.
  const contentType = answer.headers.get("content-type")?.split(";")[0];
  if (answer.status >= 400 && contentType !== "application/problem+json") {
    return [`error answer as ${contentType ?? "(no content type)"} instead of application/problem+json`];
  }
  if (match.kind === "operation") return judgeAnswer(validator, match.route, answer, [answer.status]);
  // Outside the API (pages, unknown paths): only error answers have a documented shape.
  if (answer.status < 400) return [];
  const problems = describeErrors(validator.errorsFor({ $ref: "#/components/schemas/Problem" }, answer.body));
  return problems === "" ? [] : [`not a Problem: ${problems}`];
}

/** Asserts a body is a Problem of the spec with this type and status; returns the problem's errors. */
export function problemErrors(
  answer: Answer,
  type: string,
  status: number,
): { path: string; message: string }[] {
  const problems = describeErrors(validator.errorsFor({ $ref: "#/components/schemas/Problem" }, answer.body));
  if (problems !== "") throw new Error(`not a Problem: ${problems}: ${answer.text}`);
  const body = answer.body as { type: string; status: number; errors?: { path: string; message: string }[] };
  if (body.type !== type || body.status !== status || answer.status !== status) {
    throw new Error(`expected ${status} ${type}, got ${answer.status}: ${answer.text}`);
  }
  if (answer.headers.get("content-type")?.split(";")[0] !== "application/problem+json") {
    throw new Error(`expected application/problem+json, got ${answer.headers.get("content-type")}`);
  }
  return body.errors ?? [];
}

/** The errors of a schema of the spec for a value: empty when the value is valid. */
export function schemaErrors(schemaName: string, value: unknown): string {
  return describeErrors(validator.errorsFor({ $ref: `#/components/schemas/${schemaName}` }, value));
}

export const usdcOnBase = (amount = "125.00", to = payee) => ({
  payee: to,
  amount,
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
});

/** Creates a secure payment with the API key and returns its answer. */
export async function createSecurePayment(
  server: TestServer,
  requests: unknown[] = [usdcOnBase()],
): Promise<{ requestIds: string[]; securePaymentUrl: string; token: string }> {
  const answer = await server.call("POST", "/v2/secure-payments", { body: { requests } });
  if (answer.status !== 201) throw new Error(`secure payment creation failed: ${answer.text}`);
  return answer.body;
}

/** The problems `parseConfig` finds in a configuration value; none for a valid one. */
export function problemsOf(value: unknown): string[] {
  try {
    parseConfig(value, "sandbox.json");
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
