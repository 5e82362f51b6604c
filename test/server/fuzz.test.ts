// Every operation of the spec, called with its valid examples and with hostile values in the
// places a value goes (path and query parameters, any member or item of the body): no answer may
// be a 5xx, on either store. The places and values come from a seeded generator, so that a
// failure is reproducible.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContractRequest, jsonBody, listValidCalls } from "../../src/contract/valid-inputs.ts";
import { requestText } from "../../src/net/http-request.ts";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { isObject, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { describeWithPostgres } from "../support/postgres.ts";
import { apiKey, startTestServer, type TestServer } from "./helpers.ts";
import { startTestServerOnPostgres } from "./postgres-test-server.ts";

const spec = loadBundledSpec();
const operations = readPathOperations(spec);

/** Values that have broken parsers, stores or handlers: each is put where a value goes. */
const hostileValues: unknown[] = [
  "",
  "\u0000",
  "a\u0000b",
  "x".repeat(10_000),
  "💸".repeat(100),
  "\u202e\ufeff",
  "../../etc/passwd",
  "%00",
  "' OR 1=1 --",
  "1e309",
  "-1e309",
  "Infinity",
  "NaN",
  "-0",
  "0x",
  "__proto__",
  1e308,
  -1e308,
  0,
  -1,
  2 ** 53 + 1,
  true,
  null,
  [],
  {},
  [[[[[[]]]]]],
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
];

/** A small seeded generator (mulberry32): the same cases on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every place in a JSON value where a value can be put: its members and items, at any depth. */
function placesOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value))
    return [...here, ...value.flatMap((item, index) => placesOf(item, [...at, index]))];
  if (isObject(value))
    return [...here, ...Object.entries(value).flatMap(([key, item]) => placesOf(item, [...at, key]))];
  return here;
}

function withValueAt(root: unknown, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const token of at.slice(0, -1)) parent = parent[token] as Record<string | number, unknown>;
  parent[at.at(-1) as string | number] = value;
  return copy;
}

/** Hostile variants of one valid call: each path and query parameter, and each place of its body. */
function hostileCalls(operation: SpecOperation, random: () => number, count: number): ContractRequest[] {
  const [valid] = listValidCalls(operation);
  if (!valid) return [];
  const pick = () => hostileValues[Math.floor(random() * hostileValues.length)];
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  const calls: ContractRequest[] = [];
  const names = operation.parameters.filter((parameter) => parameter.in !== "header");
  const places = valid.bodyValue === undefined ? [] : placesOf(valid.bodyValue);
  for (let n = 0; n < count; n++) {
    const request: ContractRequest = structuredClone(valid.request);
    const parameter =
      names.length > 0 && (places.length === 0 || random() < 0.4)
        ? names[Math.floor(random() * names.length)]
        : undefined;
    if (parameter) {
      request[parameter.in === "path" ? "path" : "query"][parameter.name] = text(pick());
    } else if (places.length > 0) {
      const place = places[Math.floor(random() * places.length)] as (string | number)[];
      request.body = jsonBody(withValueAt(valid.bodyValue, place, pick()), operation.body?.mediaType);
    } else {
      request.query[`unexpected${n}`] = text(pick());
    }
    calls.push(request);
  }
  return calls;
}

/**
 * The calls of one operation: its valid calls and hostile variants of them. (The contract suite's
 * invalid inputs go to both stores' servers in test/contract and test/server/validation.)
 */
function callsOf(operation: SpecOperation): ContractRequest[] {
  const random = seeded([...operation.operationId].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) | 0, 7));
  return [...listValidCalls(operation).map((call) => call.request), ...hostileCalls(operation, random, 12)];
}

function urlOf(base: string, operation: SpecOperation, request: ContractRequest): URL {
  const path = operation.key.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(request.path[name] ?? ""),
  );
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
  return url;
}

/** The calls of every operation that a server answered with a 5xx, as `METHOD path -> status`. */
async function serverErrors(server: TestServer): Promise<string[]> {
  const found: string[] = [];
  for (const operation of operations) {
    const answers = await Promise.all(
      callsOf(operation).map(async (request) => {
        const answer = await requestText(urlOf(server.url, operation, request), {
          method: operation.method,
          headers: {
            "x-api-key": apiKey,
            ...request.headers,
            ...(request.body ? { "content-type": request.body.contentType } : {}),
          },
          body: request.body?.text,
          timeoutMs: 30_000,
        });
        return { request, status: answer.status };
      }),
    );
    for (const { request, status } of answers) {
      if (status >= 500) {
        found.push(`${operation.operationId} ${JSON.stringify(request).slice(0, 300)} -> ${status}`);
      }
    }
  }
  return found;
}

describe("every operation, fuzzed, on the memory store", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers no 5xx, and logs no failure", async () => {
    expect(await serverErrors(server)).toEqual([]);
    expect(server.loggedErrors).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describeWithPostgres("every operation, fuzzed, on the PostgreSQL store", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerOnPostgres();
  });
  afterAll(() => server.close());

  it("answers no 5xx, and logs no failure", async () => {
    expect(await serverErrors(server)).toEqual([]);
    expect(server.loggedErrors).toEqual([]);
  });
});
