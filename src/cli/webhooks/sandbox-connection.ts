import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "../../../generated/schema.d.ts";
import { describeFetchFailure } from "../../net/describe-fetch-failure.ts";
import { sampleCredentials } from "../../server/config/sandbox-config.ts";
import { CommandError } from "../cli-errors.ts";
import type { CliIo } from "../cli-io.ts";
import { readHttpUrl } from "../option-values.ts";

/** The flags every command that talks to the reference server's sandbox API takes. */
export const sandboxConnectionOptions = {
  server: { type: "string" },
  "api-key": { type: "string" },
} as const;

export const defaultServerUrl = "http://127.0.0.1:3000";
/** The apiKeyHint of a key given with --api-key: it is not printed. */
export const apiKeyPlaceholder = "<your API key>";
const requestTimeoutMs = 10_000;

/** The sandbox API's operations, typed from the spec: the commands call it as any HTTP client of it would. */
export type SandboxClient = Client<paths>;

/** What openapi-fetch resolves a call to: `data` on success, `error` (the parsed body) otherwise. */
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export interface SandboxConnection {
  /** The server's origin and base path, without a trailing slash. */
  server: string;
  client: SandboxClient;
  /** How to show the API key in a printed command: the sample key as is, any other key as a placeholder. */
  apiKeyHint: string;
}

/** The client for --server and --api-key (else PAYREQ_API_KEY, else the sandbox's sample key). */
export function connectToSandbox(
  values: { server: string | undefined; "api-key": string | undefined },
  io: CliIo,
  command: string,
): SandboxConnection {
  const server = readHttpUrl(
    values.server ?? defaultServerUrl,
    "--server",
    command,
    defaultServerUrl,
  ).replace(/\/+$/, "");
  const fromEnv = io.env.PAYREQ_API_KEY;
  const apiKey = values["api-key"] ?? (fromEnv || sampleCredentials.apiKey);
  const apiKeyHint =
    apiKey === sampleCredentials.apiKey
      ? apiKey
      : values["api-key"] === undefined
        ? "$PAYREQ_API_KEY"
        : apiKeyPlaceholder;
  const client = createClient<paths>({
    baseUrl: server,
    headers: { "x-api-key": apiKey },
    fetch: (request) => fetch(request, { signal: AbortSignal.timeout(requestTimeoutMs) }),
  });
  return { server, client, apiKeyHint };
}

/**
 * The `-H` argument of a printed curl command. A key read from the environment is printed as
 * `$PAYREQ_API_KEY` in double quotes, so that the shell expands it when the command is pasted.
 */
export function curlApiKeyHeader(connection: SandboxConnection): string {
  const header = `x-api-key: ${connection.apiKeyHint}`;
  return connection.apiKeyHint.startsWith("$") ? `"${header}"` : `'${header}'`;
}

/**
 * Makes one call and returns its data, or throws a CommandError that says what was being done,
 * what the server answered (its problem detail) or why it could not be reached.
 */
export async function callSandbox<Result extends CallResult>(
  connection: SandboxConnection,
  doing: string,
  call: () => Promise<Result>,
): Promise<NonNullable<Result["data"]>> {
  let result: Result;
  try {
    result = await call();
  } catch (error) {
    throw new CommandError(describeUnreachable(connection.server, doing, error), { cause: error });
  }
  if (!result.response.ok || result.error !== undefined) {
    throw new CommandError(describeRefusal(connection.server, doing, result.response.status, result.error));
  }
  return result.data as NonNullable<Result["data"]>;
}

function describeUnreachable(server: string, doing: string, error: unknown): string {
  return [
    `could not ${doing}: ${server} is unreachable: ${describeFetchFailure(error, requestTimeoutMs)}.`,
    "Is the reference server running? Start it with `payreq serve` (or `npm start`), or pass --server URL.",
  ].join("\n");
}

type Problem = components["schemas"]["Problem"];

/** The members of a Problem Details body the refusal names; each may be missing from a body that is not one. */
interface ProblemParts {
  type: Problem["type"] | undefined;
  title: Problem["title"] | undefined;
  detail: Problem["detail"] | undefined;
  errors: NonNullable<Problem["errors"]>;
}

function problemPartsOf(body: unknown): ProblemParts {
  if (typeof body !== "object" || body === null) {
    return { type: undefined, title: undefined, detail: undefined, errors: [] };
  }
  const { type, title, detail, errors } = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const issues = Array.isArray(errors)
    ? errors.filter(
        (issue): issue is { path: string; message: string } =>
          typeof issue?.path === "string" && typeof issue?.message === "string",
      )
    : [];
  return { type: text(type), title: text(title), detail: text(detail), errors: issues };
}

function describeRefusal(server: string, doing: string, status: number, body: unknown): string {
  const problem = problemPartsOf(body);
  const lines = [
    `could not ${doing}: ${server} answered ${status}${problem.title ? ` ${problem.title}` : ""}${problem.detail ? `: ${problem.detail}` : ""}`,
    ...problem.errors.map((issue) => `  - ${issue.path}: ${issue.message}`),
  ];
  if (status === 401 || status === 403) {
    lines.push(
      "Check the API key: --api-key KEY, or PAYREQ_API_KEY (the sandbox's sample key is the default).",
    );
  }
  if (status === 404 && problem.type === undefined) {
    lines.push(`Is ${server} a payreq reference server? Only it serves the sandbox API.`);
  }
  return lines.join("\n");
}
