import type { Middleware } from "openapi-fetch";

/** A secret API key, for servers: every operation accepts it. */
export interface ApiKeyCredentials {
  apiKey: string;
  clientId?: never;
  origin?: never;
}

/**
 * A public client ID, for browsers, with the origin it is used from; operations that need the
 * API key refuse it. In a browser the browser sets `Origin` itself and ignores this value.
 */
export interface ClientIdCredentials {
  clientId: string;
  origin: string;
  apiKey?: never;
}

export type Credentials = ApiKeyCredentials | ClientIdCredentials;

/** Adds the credential headers to every request: `x-api-key`, or `x-client-id` and `Origin`. */
export function createAuthMiddleware(credentials: Credentials): Middleware {
  const headers: [string, string][] =
    credentials.apiKey !== undefined
      ? [["x-api-key", credentials.apiKey]]
      : [
          ["x-client-id", credentials.clientId],
          ["Origin", credentials.origin],
        ];
  return {
    onRequest({ request }) {
      for (const [name, value] of headers) request.headers.set(name, value);
      return request;
    },
  };
}
