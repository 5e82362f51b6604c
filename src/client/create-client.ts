import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../../generated/schema.d.ts";
import { isAuthApiPath } from "../wire/auth-api-paths.ts";
import { InvalidValueError } from "../wire/payreq-error.ts";
import {
  type ApiKeyCredentials,
  type ClientIdCredentials,
  type Credentials,
  createAuthMiddleware,
} from "./auth-middleware.ts";
import { type FetchLike, type RetryOptions, withRetries } from "./retrying-fetch.ts";

/** A client whose every path, parameter, body and answer is typed by the spec. */
export type PayreqClient = Client<paths>;

interface CommonOptions {
  /** The service's root URL, for example `https://api.example.com` (paths start with `/v1` or `/v2`). */
  baseUrl: string;
  /**
   * The Auth API's root URL (`https://auth.request.network` for the real service), where its
   * operations (`/v1/auth/...`, `/v1/webhook...`, `/v1/health`) are sent. Default: `baseUrl`, as
   * the reference server answers both APIs on one origin.
   */
  authBaseUrl?: string | undefined;
  /** The fetch to send requests with. Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Headers added to every request. The credential headers take precedence. */
  headers?: Record<string, string> | undefined;
  /** Retries of idempotent requests on 429 and network errors; off unless given (`true` for defaults). */
  retry?: boolean | RetryOptions | undefined;
}

/** Options of `createPayreqClient`: an API key, or a client ID with its origin, never both. */
export type PayreqClientOptions = CommonOptions & (ApiKeyCredentials | ClientIdCredentials);

/**
 * Creates a typed client of the Payment Request Service on openapi-fetch. Calls resolve to
 * `{data, error, response}`; pass the result to `unwrap` to get the data or throw an `ApiError`.
 */
export function createPayreqClient(options: PayreqClientOptions): PayreqClient {
  const credentials = readCredentials(options);
  const baseUrl = readBaseUrl(options.baseUrl);
  const baseFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  if (typeof baseFetch !== "function") throw new InvalidValueError("fetch", "a function", baseFetch);
  const retry = options.retry === true ? {} : options.retry;
  const retrying = retry ? withRetries(baseFetch, retry) : baseFetch;
  const authBaseUrl =
    options.authBaseUrl === undefined ? baseUrl : readBaseUrl(options.authBaseUrl, "authBaseUrl");
  const fetch = authBaseUrl === baseUrl ? retrying : routeAuthApi(retrying, baseUrl, authBaseUrl);
  const client = createClient<paths>({
    baseUrl,
    fetch,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  client.use(createAuthMiddleware(credentials));
  return client;
}

function readBaseUrl(value: unknown, field = "baseUrl"): string {
  const expected = "an http(s) URL such as https://api.example.com";
  if (typeof value !== "string") throw new InvalidValueError(field, expected, value);
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new InvalidValueError(field, expected, value, { cause: error });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidValueError(field, expected, value);
  }
  return value;
}

/** Sends the Auth API's requests to its own root URL, every other one where it was addressed. */
function routeAuthApi(fetch: FetchLike, baseUrl: string, authBaseUrl: string): FetchLike {
  const root = baseUrl.replace(/\/+$/, "");
  const authRoot = authBaseUrl.replace(/\/+$/, "");
  return (request) => {
    if (!request.url.startsWith(root)) return fetch(request);
    const rest = request.url.slice(root.length);
    const pathname = rest.split(/[?#]/)[0] ?? "";
    if (!isAuthApiPath(pathname)) return fetch(request);
    return fetch(new Request(`${authRoot}${rest}`, request));
  };
}

/** Checks the credential options at run time too, for callers without the type check. Never echoes a secret. */
function readCredentials(options: Partial<Record<"apiKey" | "clientId" | "origin", unknown>>): Credentials {
  const { apiKey, clientId, origin } = options;
  if (apiKey !== undefined) {
    if (clientId !== undefined || origin !== undefined) {
      throw new InvalidValueError("credentials", "either apiKey, or clientId with origin", undefined, {
        receivedDescription: "both an apiKey and a clientId or origin",
      });
    }
    if (typeof apiKey !== "string" || apiKey === "") {
      throw new InvalidValueError("apiKey", "a non-empty string", undefined, {
        receivedDescription: typeof apiKey === "string" ? "an empty string" : `a ${typeof apiKey}`,
      });
    }
    return { apiKey };
  }
  if (clientId === undefined) {
    throw new InvalidValueError("credentials", "an apiKey, or a clientId with its origin", undefined, {
      receivedDescription: "neither",
    });
  }
  if (typeof clientId !== "string" || clientId === "") {
    throw new InvalidValueError("clientId", "a non-empty string", clientId);
  }
  return { clientId, origin: readOrigin(origin) };
}

function readOrigin(value: unknown): string {
  const expected = "an origin: scheme, host and optional port, such as https://shop.example";
  if (typeof value !== "string") throw new InvalidValueError("origin", expected, value);
  let parsed: string;
  try {
    parsed = new URL(value).origin;
  } catch (error) {
    throw new InvalidValueError("origin", expected, value, { cause: error });
  }
  if (parsed !== value) {
    throw new InvalidValueError("origin", `${expected} (did you mean ${parsed}?)`, value);
  }
  return value;
}
