import type * as NodeCrypto from "node:crypto";
import { PayreqError } from "../wire/payreq-error.ts";

// node:crypto is loaded on first use. The package root also serves the browser client, and a
// static import of a Node built-in would break browser bundles of it. Nothing here appears in
// the package's public types, so they need no @types/node either.

function nodeCrypto(): typeof NodeCrypto {
  const crypto = typeof process === "undefined" ? undefined : process.getBuiltinModule?.("node:crypto");
  if (!crypto) {
    throw new PayreqError("Webhook signatures need node:crypto: run them on Node.js 20.16 or later.");
  }
  return crypto;
}

/** HMAC-SHA-256 of `data` keyed by `key`; strings are taken as UTF-8. */
export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array): Buffer {
  return nodeCrypto().createHmac("sha256", key).update(data).digest();
}

/** Compares two byte strings of equal length in constant time. */
export function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  return nodeCrypto().timingSafeEqual(a, b);
}
