import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { lookup as lookupAsync } from "node:dns/promises";
import { isIP } from "node:net";
import { blockedAddressKind } from "./address-kind.ts";

export { blockedAddressKind } from "./address-kind.ts";

/** The host of a URL as a resolver takes it: IPv6 without brackets, no trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

const isLocalhostName = (host: string) => /(^|\.)localhost$/i.test(host);

function refusal(host: string, address: string, kind: string): string {
  const via = host === address ? "" : ` (${address})`;
  const article = /^(u|IPv4)/.test(kind) ? "an" : "a";
  return `${host}${via} is ${article} ${kind} address`;
}

/** Why a host may not be reached without resolving it (an IP literal or a localhost name), if so. */
export function refuseLiteralHost(host: string): string | undefined {
  if (isLocalhostName(host)) return `${host} is a loopback name`;
  const kind = blockedAddressKind(host);
  return kind ? refusal(host, host, kind) : undefined;
}

/**
 * Why a host may not be reached, resolving names with the system resolver. A name that does not
 * resolve is not refused here: the delivery fails on it, and checks it again then.
 */
export async function refuseHost(host: string): Promise<string | undefined> {
  const literal = refuseLiteralHost(host);
  if (literal || isIP(host) !== 0) return literal;
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAsync(host, { all: true, verbatim: true });
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const kind = blockedAddressKind(address);
    if (kind) return refusal(host, address, kind);
  }
  return undefined;
}

/** The error a guarded lookup fails with; the delivery records its message. */
export class BlockedTargetError extends Error {
  readonly code = "EBLOCKEDTARGET";
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http that refuses blocked addresses: the connection goes to the addresses
 * checked here, so a name cannot resolve to a public address at the check and a private one later.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (isLocalhostName(hostname.replace(/\.$/, ""))) {
    callback(new BlockedTargetError(refuseLiteralHost(hostname.replace(/\.$/, "")) ?? hostname), []);
    return;
  }
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    for (const { address } of addresses) {
      const kind = blockedAddressKind(address);
      if (kind) return callback(new BlockedTargetError(refusal(hostname, address, kind)), []);
    }
    const [first] = addresses;
    if (options.all) return callback(null, addresses);
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}
