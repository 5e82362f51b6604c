import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Names of ipaddr.js ranges a webhook may not reach, in words for an error message. */
const blockedRangeWords: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "private (shared, 100.64.0.0/10)",
  uniqueLocal: "private (unique local, fc00::/7)",
  deprecatedSiteLocal: "site-local",
  reserved: "reserved",
  // IPv6 forms that carry an IPv4 address, which could be any of the kinds above.
  ipv4Mapped: "IPv4-mapped",
  rfc6145: "IPv4-translated (::ffff:0:0/96)",
  rfc6052: "NAT64",
  "6to4": "6to4",
  teredo: "Teredo",
};

/** Global unicast IPv6 is 2000::/3; everything else outside ipaddr.js's named ranges is unassigned. */
const isGlobalUnicastIpv6 = (address: ipaddr.IPv6) => ((address.parts[0] ?? 0) & 0xe000) === 0x2000;

/**
 * An IPv6 address in the WHATWG URL parser's all-hex form, zone dropped: ipaddr.js 2.5 reads
 * the dotted `::a.b.c.d` as `::ffff:a.b.c.d`, which would misname the kind.
 */
function hexIpv6(address: string): string {
  const bare = address.split("%")[0] ?? address;
  return new URL(`http://[${bare}]`).hostname.slice(1, -1);
}

/**
 * Why a webhook may not reach an IP address, as the kind of address in words ("loopback",
 * "IPv4-mapped", ...), or undefined for a public unicast address. Only public unicast passes:
 * every IPv6 form that embeds an IPv4 address is refused whatever address it embeds.
 */
export function blockedAddressKind(address: string): string | undefined {
  // isIP takes only the canonical forms; ipaddr.js would also read names such as "0x7f.1".
  const family = isIP(address);
  if (family === 0) return undefined;
  const parsed = ipaddr.parse(family === 6 ? hexIpv6(address) : address);
  const range = parsed.range();
  if (range === "unicast") {
    if (parsed.kind() === "ipv4" || isGlobalUnicastIpv6(parsed as ipaddr.IPv6)) return undefined;
    const parts = (parsed as ipaddr.IPv6).parts;
    return parts.slice(0, 6).every((part) => part === 0) ? "IPv4-compatible" : "reserved";
  }
  return blockedRangeWords[range] ?? "special-purpose";
}
