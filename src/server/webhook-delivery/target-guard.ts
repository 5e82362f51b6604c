import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { lookup as lookupAsync } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

type AddressKind = "loopback" | "private" | "link-local" | "unspecified";

/** Address ranges a webhook may not reach when `blockPrivateWebhookTargets` is on. */
const ranges: [AddressKind, string, number, "ipv4" | "ipv6"][] = [
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "100.64.0.0", 10, "ipv4"], // carrier-grade NAT, shared address space
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  ["private", "fc00::", 7, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
];

// One list per kind, so that a refusal can say which kind of address it met. BlockList also
// matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 ranges.
const lists = new Map<AddressKind, BlockList>();
for (const [kind, network, prefix, family] of ranges) {
  const list = lists.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  lists.set(kind, list);
}

/** The kind of a blocked IP address, or undefined when a webhook may reach it. */
export function blockedAddressKind(address: string): AddressKind | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  for (const [kind, list] of lists) {
    if (list.check(address, family === 4 ? "ipv4" : "ipv6")) return kind;
  }
  return undefined;
}

/** The host of a URL as a resolver takes it: IPv6 without brackets, no trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

const isLocalhostName = (host: string) => /(^|\.)localhost$/i.test(host);

function refusal(host: string, address: string, kind: AddressKind): string {
  const via = host === address ? "" : ` (${address})`;
  const article = kind === "unspecified" ? "an" : "a";
  return `${host}${via} is ${article} ${kind} address, and blockPrivateWebhookTargets refuses those`;
}

/** Why a host may not be reached without resolving it (an IP literal or a localhost name), if so. */
export function refuseLiteralHost(host: string): string | undefined {
  if (isLocalhostName(host)) return `${host} is a loopback name, and blockPrivateWebhookTargets refuses it`;
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
