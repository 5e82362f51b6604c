import { isIP } from "node:net";

const withoutBrackets = (address: string) => address.replace(/^\[(.*)\]$/, "$1");

/** Whether a bind address means every interface (`0.0.0.0`, `::`) rather than one address. */
export function isWildcardAddress(bindAddress: string): boolean {
  const bare = withoutBrackets(bindAddress);
  return bare === "0.0.0.0" || (isIP(bare) === 6 && /^[0:]+$/.test(bare));
}

/**
 * The host to put in a URL for a server bound to `bindAddress`. A wildcard address is where a
 * server listens, not one a browser can open, so links and banners use the loopback address of
 * the same family; an IPv6 address gets its brackets.
 */
export function reachableUrlHost(bindAddress: string): string {
  const bare = withoutBrackets(bindAddress);
  if (isWildcardAddress(bare)) return isIP(bare) === 6 ? "[::1]" : "127.0.0.1";
  return isIP(bare) === 6 ? `[${bare}]` : bare;
}
