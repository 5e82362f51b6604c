/**
 * The webhook targets a configuration exempts from the address guard (`allowWebhookTargets`):
 * exact origins such as `http://127.0.0.1:4000`, or hosts on any port and scheme such as
 * `localhost`, `127.0.0.1` or `[::1]`. Everything else must reach a public address.
 */
export interface WebhookTargetAllowList {
  /** True when the URL's origin or host is listed; false otherwise, a malformed URL included. */
  allows(url: string): boolean;
}

/** Appended to a refusal where the one who can lift it reads it: at registration and in the configuration. */
export const allowListHint = "; allowWebhookTargets in the server's configuration can allow it";

const isOriginEntry = (entry: string) => /^https?:\/\//i.test(entry);

/** Why an entry of `allowWebhookTargets` cannot be used, in words; undefined when it can. */
export function describeAllowEntryProblem(entry: string): string | undefined {
  try {
    const url = new URL(isOriginEntry(entry) ? entry : `http://${entry}`);
    if (url.origin === "null" || url.username !== "" || url.password !== "") throw new Error(entry);
    if (url.pathname !== "/" || url.search !== "" || url.hash !== "") throw new Error(entry);
    if (!isOriginEntry(entry) && url.port !== "") throw new Error(entry);
    return undefined;
  } catch {
    return "must be an origin such as http://127.0.0.1:4000 or a host such as localhost, 127.0.0.1 or [::1]";
  }
}

/** `LOCALHOST.` and `localhost` are one host. */
const normaliseHostname = (hostname: string) => hostname.toLowerCase().replace(/\.$/, "");

export function createTargetAllowList(entries: readonly string[] = []): WebhookTargetAllowList {
  const origins = new Set<string>();
  const hosts = new Set<string>();
  for (const entry of entries) {
    if (describeAllowEntryProblem(entry) !== undefined) continue;
    if (isOriginEntry(entry)) origins.add(new URL(entry).origin);
    else hosts.add(normaliseHostname(new URL(`http://${entry}`).hostname));
  }
  return {
    allows(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return false;
      }
      return origins.has(url.origin) || hosts.has(normaliseHostname(url.hostname));
    },
  };
}
