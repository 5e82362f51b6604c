import { fullFormats } from "ajv-formats/dist/formats.js";

const ajvUri = fullFormats.uri as (text: string) => boolean;
const notUriFragment = /\/|:/;
/**
 * ajv-formats' full `uri` pattern (RFC 3986) without its one alternative that begins with `[`:
 * the IP literal (an IPv6 address or IPvFuture in brackets), the longest part of the pattern. No
 * other part of it admits a `[`.
 */
const uriWithoutIpLiteral =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/**
 * ajv-formats' full `uri`, which V8 compiles at its first use: some 9 ms of every start here, as
 * the warm-up's links are the first URIs checked. A URI without a `[` is checked against the
 * pattern without the IP-literal alternative, which compiles in a fifth of that time, and any
 * other text by ajv-formats' own check: both accept and refuse the same texts
 * (test/spec/uri-format.test.ts). A function, as ajv-formats' is, so that Ajv writes the same code for it.
 */
export function uriFormat(text: string): boolean {
  return text.includes("[") ? ajvUri(text) : notUriFragment.test(text) && uriWithoutIpLiteral.test(text);
}
