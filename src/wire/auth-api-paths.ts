import type { paths } from "../../generated/schema.d.ts";

/**
 * The path templates of the Auth API (auth.request.network), whose path items name that server
 * in the spec; test/spec/auth-api.test.ts holds this list to the spec. The Request API shares
 * none of them, so one origin can serve both.
 */
export const authApiPathTemplates = [
  "/v1/health",
  "/v1/auth/register",
  "/v1/auth/login",
  "/v1/auth/wallet/challenge",
  "/v1/auth/wallet/verify",
  "/v1/auth/logout",
  "/v1/webhook",
  "/v1/webhook/test",
  "/v1/webhook/{webhookId}",
  "/v1/client-ids",
  "/v1/client-ids/{id}",
  "/v1/payee-destination",
  "/v1/payee-destination/lookup",
  "/v1/payee-destination/payout-lookup",
  "/v1/payee-destination/deactivate",
  "/v1/payee-destination/wallet-change/cancel",
  "/v1/client-id-links/intents/{token}",
  "/v1/client-id-links/{clientIdId}/kyt",
] as const satisfies readonly (keyof paths)[];

const patterns = authApiPathTemplates.map(
  (template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
);

/** Whether a request path (`/v1/webhook/we_01...`, without query) is one of the Auth API's. */
export function isAuthApiPath(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
