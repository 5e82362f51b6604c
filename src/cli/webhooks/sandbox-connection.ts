import { type ApiError, type FetchResult, toApiError } from "../../client/api-error.ts";
import { createPayreqClient, type PayreqClient } from "../../client/create-client.ts";
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

export interface SandboxConnection {
  /** The server's origin and base path, without a trailing slash. */
  server: string;
  client: PayreqClient;
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
  const client = createPayreqClient({
    baseUrl: server,
    apiKey,
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
export async function callSandbox<Result extends FetchResult>(
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
    throw new CommandError(describeRefusal(connection.server, doing, toApiError(result)));
  }
  return result.data as NonNullable<Result["data"]>;
}

function describeUnreachable(server: string, doing: string, error: unknown): string {
  return [
    `could not ${doing}: ${server} is unreachable: ${describeFetchFailure(error, requestTimeoutMs)}.`,
    "Is the reference server running? Start it with `payreq serve` (or `npm start`), or pass --server URL.",
  ].join("\n");
}

function describeRefusal(server: string, doing: string, error: ApiError): string {
  const lines = [
    `could not ${doing}: ${server} answered ${error.status}${error.title ? ` ${error.title}` : ""}${error.detail ? `: ${error.detail}` : ""}`,
    ...error.errors.map((issue) => `  - ${issue.path}: ${issue.message}`),
  ];
  if (error.status === 401 || error.status === 403) {
    lines.push(
      "Check the API key: --api-key KEY, or PAYREQ_API_KEY (the sandbox's sample key is the default).",
    );
  }
  if (error.status === 404 && error.type === undefined) {
    lines.push(`Is ${server} a payreq reference server? Only it serves the sandbox API.`);
  }
  return lines.join("\n");
}
