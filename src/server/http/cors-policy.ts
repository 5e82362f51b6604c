import { credentialHeaders, type SpecOperation } from "../../spec/operations.ts";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { preferHeaderName } from "./prefer-header.ts";

/** What browsers are told in CORS answers, read from the spec. */
export interface CorsPolicy {
  /** The methods of the operations a browser may call (those accepting a client ID). */
  allowedMethods: string;
  /** The headers a browser call sends: the client ID, a JSON body's type, a request id, and `Prefer`. */
  allowedHeaders: string;
  /** Every response header the spec documents, so that browser code can read them. */
  exposedHeaders: string;
}

/** `x-client-id` -> `X-Client-Id`: header names as they read in CORS lists. */
function displayName(header: string): string {
  return header.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}

export function readCorsPolicy(spec: SpecDocument, operations: readonly SpecOperation[]): CorsPolicy {
  const browserOperations = operations.filter((operation) => operation.acceptsClientId);
  const methods = new Set(browserOperations.map((operation) => operation.method));
  const exposed = new Set<string>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses)) {
      for (const header of Object.keys(response.headers)) exposed.add(displayName(header));
    }
  }
  const requestId = [...exposed].find((header) => header.toLowerCase() === "x-request-id");
  const allowed = [
    "Content-Type",
    displayName(credentialHeaders(spec).clientId),
    ...(requestId ? [requestId] : []),
    preferHeaderName,
  ];
  return {
    allowedMethods: [...methods].join(", "),
    allowedHeaders: allowed.join(", "),
    exposedHeaders: [...exposed].sort().join(", "),
  };
}
