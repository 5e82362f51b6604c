import type { RequestHandler } from "express";

function encodePart(part: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(part.replaceAll("+", " ")));
  } catch {
    return part; // malformed escapes stay as sent; the query parser and validator judge them
  }
}

/**
 * Re-encodes the query string so that reserved characters inside values (`networks=base,matic`,
 * `clientUserId=ada@example.com`) reach the validator percent-encoded. The values are the same
 * once decoded; the validator would otherwise refuse raw reserved characters, which the service
 * and common HTTP clients accept.
 */
/** Pairs of unreserved characters and upper-case escapes: re-encoding would leave them as they are. */
const part = "(?:[A-Za-z0-9\\-._~]|%[0-9A-F]{2})*";
const alreadyCanonical = new RegExp(`^${part}(?:=${part})?(?:&${part}(?:=${part})?)*$`);

export function canonicaliseQuery(): RequestHandler {
  return (req, _res, next) => {
    const index = req.url.indexOf("?");
    if (index < 0 || alreadyCanonical.test(req.url.slice(index + 1))) return next();
    const query = req.url
      .slice(index + 1)
      .split("&")
      .filter((pair) => pair !== "")
      .map((pair) => {
        const equals = pair.indexOf("=");
        return equals < 0
          ? encodePart(pair)
          : `${encodePart(pair.slice(0, equals))}=${encodePart(pair.slice(equals + 1))}`;
      })
      .join("&");
    const url = `${req.url.slice(0, index)}?${query}`;
    req.url = url;
    req.originalUrl = url;
    next();
  };
}
