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
export function canonicaliseQuery(): RequestHandler {
  return (req, _res, next) => {
    const index = req.url.indexOf("?");
    if (index < 0) return next();
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
