import type { SpecOperation } from "../spec/operations.ts";

export interface RequestBody {
  contentType: string;
  text: string;
}

/** A request to send, before credentials are added. */
export interface ContractRequest {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: RequestBody;
}

/** A request the spec says is valid, built from the spec's own examples. */
export interface ValidCall {
  /** The named request-body example it sends, if any. */
  exampleName?: string;
  request: ContractRequest;
  bodyValue?: unknown;
}

export function jsonBody(value: unknown, contentType = "application/json"): RequestBody {
  return { contentType, text: JSON.stringify(value) };
}

function exampleText(operation: SpecOperation, name: string, example: unknown): string {
  if (example === undefined) {
    throw new Error(
      `${operation.operationId}: required parameter "${name}" has no example to build a valid call from`,
    );
  }
  return typeof example === "string" ? example : JSON.stringify(example);
}

/**
 * Optional query parameters a valid call sends all the same, by operationId: a rule beyond the
 * schema requires them for some credentials (the API key must name the wallet whose requests
 * `listRequests` lists).
 */
const queryRequiredByRule: Record<string, string[]> = {
  listRequests: ["walletAddress"],
};

/**
 * One valid call per named request-body example (or one call when there is no body): path parameters
 * and required query and header parameters take their documented `example`.
 */
export function listValidCalls(operation: SpecOperation): ValidCall[] {
  const base: ContractRequest = { path: {}, query: {}, headers: {} };
  for (const parameter of operation.parameters) {
    const requiredByRule =
      parameter.in === "query" && queryRequiredByRule[operation.operationId]?.includes(parameter.name);
    if (parameter.in !== "path" && !parameter.required && !requiredByRule) continue;
    base[parameter.in === "path" ? "path" : parameter.in === "query" ? "query" : "headers"][parameter.name] =
      exampleText(operation, parameter.name, parameter.example);
  }
  const body = operation.body;
  if (!body) return [{ request: base }];
  if (body.examples.length === 0) {
    if (body.required) throw new Error(`${operation.operationId}: the request body has no example`);
    return [{ request: base }];
  }
  return body.examples.map((example) => ({
    exampleName: example.name,
    bodyValue: example.value,
    request: { ...base, body: jsonBody(example.value, body.mediaType) },
  }));
}
