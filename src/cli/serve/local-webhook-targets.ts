import { isIP } from "node:net";

/** The hosts of webhook receivers on this machine, as `allowWebhookTargets` lists them. */
export const loopbackWebhookTargets = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Whether a bind address takes connections from this machine only. A caller of such a server is
 * already on the machine, so letting its webhooks reach loopback receivers gives it no new reach.
 */
export function isLoopbackBindAddress(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return address === "localhost" || address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}
