// The server checks requests with Ajv per operation (src/server/validation). This test holds those
// checks against express-openapi-validator's public middleware on the same spec: both must accept
// every valid call the contract suite derives from the spec's examples, and refuse every invalid
// input it derives from the schemas.
import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listInvalidInputs } from "../../../src/contract/invalid-inputs.ts";
import { type ContractRequest, listValidCalls } from "../../../src/contract/valid-inputs.ts";
import { requestText } from "../../../src/net/http-request.ts";
import { inSequence } from "../../../src/server/http/in-sequence.ts";
import { parseJsonBody } from "../../../src/server/http/parse-json-body.ts";
import { assignRequestId } from "../../../src/server/http/request-id.ts";
import { resolveOperation } from "../../../src/server/http/resolve-operation.ts";
import { buildRouteTable } from "../../../src/server/http/route-table.ts";
import { validateRequests } from "../../../src/server/validation/validate-request.ts";
import { readPathOperations } from "../../../src/spec/operations.ts";
import { createSchemaValidator } from "../../../src/spec/schema-validator.ts";
import {
  asObject,
  escapePointerToken,
  getAtPointer,
  loadBundledSpec,
  unescapePointerToken,
} from "../../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const operations = readPathOperations(spec);
const accepted: RequestHandler = (_req, res) => {
  res.status(204).end();
};
const answerStatus: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = (error as { status?: number }).status ?? 500;
  res.status(status >= 400 && status < 500 ? 400 : status).end();
};

/** The server's own validation step, behind the steps it needs: finding the operation, reading the body. */
function ourValidation() {
  const app = express();
  app.set("query parser", "simple");
  app.use(
    inSequence([
      assignRequestId(),
      resolveOperation(buildRouteTable(operations)),
      parseJsonBody(),
      validateRequests(spec, { strictBodies: false, validateResponses: false }),
      accepted,
    ]),
  );
  const answerProblem: ErrorRequestHandler = (error: { kind?: string }, req, res, next) =>
    answerStatus(error.kind === "validationFailed" ? { status: 400 } : error, req, res, next);
  app.use(answerProblem);
  return app;
}

/** The components `node` refers to, and those they refer to in turn, as `#/components/...` pointers. */
function referencedComponents(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedComponents(item, found);
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && !found.has(value)) {
        found.add(value);
        referencedComponents(getAtPointer(spec, value.slice(1)), found);
      } else referencedComponents(value, found);
    }
  }
  return found;
}

/**
 * The spec cut down to one path and the components it refers to. express-openapi-validator compiles
 * each route with the whole document beside its schemas, so Ajv walks the document twice per
 * route; on the whole spec that is most of this test's time, on one path's share a small part.
 */
function specForPath(key: string) {
  const pathItem = getAtPointer(spec, `/paths/${escapePointerToken(key)}`);
  const components: Record<string, Record<string, unknown>> = {
    securitySchemes: asObject(getAtPointer(spec, "/components/securitySchemes")),
  };
  for (const pointer of referencedComponents(pathItem)) {
    const [, , kind, name] = pointer.split("/") as [string, string, string, string];
    components[kind] = {
      ...components[kind],
      [unescapePointerToken(name)]: getAtPointer(spec, pointer.slice(1)),
    };
  }
  return structuredClone({ ...spec, paths: { [key]: pathItem }, webhooks: undefined, components });
}

/** express-openapi-validator's middleware with the options the server's checks follow, for one path. */
function theirValidation(key: string) {
  const app = express();
  app.use(express.json({ strict: false }));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: specForPath(key) as never,
      // The spec's own validity is checked by the lint tests; checking it again per path costs a
      // compile of the OpenAPI schema each time.
      validateApiSpec: false,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false, removeAdditional: true },
      validateResponses: false,
      validateSecurity: false,
      ignoreUndocumented: true,
    }),
  );
  app.use(accepted);
  app.use(answerStatus);
  return app;
}

async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

function urlOf(key: string, request: ContractRequest): string {
  const path = key.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(request.path[name] ?? ""));
  const query = new URLSearchParams(request.query).toString();
  return query === "" ? path : `${path}?${query}`;
}

let ours: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  ours = await listen(ourValidation());
});
afterAll(() => {
  ours.close();
});

async function statusOf(baseUrl: string, method: string, key: string, request: ContractRequest) {
  const answer = await requestText(new URL(urlOf(key, request), baseUrl), {
    method,
    headers: { ...request.headers, ...(request.body ? { "content-type": request.body.contentType } : {}) },
    body: request.body?.text,
    timeoutMs: 10_000,
  });
  return answer.status;
}

const schemaValidator = createSchemaValidator(spec);

describe.each(operations)("$operationId", (operation) => {
  it("is validated alike: valid calls accepted, invalid inputs refused, by both", async () => {
    const validCalls = listValidCalls(operation);
    // Every example body is accepted by both; the invalid inputs are derived from the first call:
    // those of the others break the same schemas again.
    const [first] = validCalls;
    const inputs = [
      ...validCalls.map((valid) => ({
        check: `valid ${valid.exampleName ?? "call"}`,
        request: valid.request,
        expected: 204,
      })),
      ...(first ? listInvalidInputs(spec, schemaValidator, operation, first) : [])
        .filter((input) => input.expect === "validation" || input.expect === "invalid-path-value")
        // Without strictBodies both drop the members the spec does not describe.
        .map((input) => ({
          check: input.check,
          request: input.request,
          expected: input.unknownMember ? 204 : 400,
        })),
    ];
    const theirs = await listen(theirValidation(operation.key));
    const verdicts = await Promise.all(
      inputs.map(async ({ check, request, expected }) => {
        const [our, their] = await Promise.all([
          statusOf(ours.url, operation.method, operation.key, request),
          statusOf(theirs.url, operation.method, operation.key, request),
        ]);
        return `${check}: ours ${our}, express-openapi-validator ${their}, expected ${expected}`;
      }),
    ).finally(theirs.close);
    expect(
      verdicts.filter((verdict) => !/ours (\d+), express-openapi-validator \1, expected \1$/.test(verdict)),
    ).toEqual([]);
    expect(inputs.length).toBeGreaterThan(0);
  });
});
