import type { RequestValidator } from "express-openapi-validator/dist/middlewares/openapi.request.validator.js";
import { describe, expect, it } from "vitest";
import generated from "../../generated/request-validators.cjs";
import { listValidCalls } from "../../src/contract/valid-inputs.ts";
import { createDefaultConfig } from "../../src/server/config/sandbox-config.ts";
import { sharedValidators } from "../../src/server/http/openapi-validation.ts";
import {
  operationValidationInputs,
  requestSchemaKey,
} from "../../src/server/http/operation-validation-inputs.ts";
import { precompiledRequestsFor } from "../../src/server/http/precompiled-requests.ts";
import {
  compileRequestSchemas,
  type RequestSchemaValidator,
  requestValidatorParts,
} from "../../src/server/http/request-validator-parts.ts";
import { firstCalledOperations } from "../../src/server/warm-up.ts";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { apiKey, startTestServer, usdcOnBase } from "./helpers.ts";

const spec = loadBundledSpec();
const operations = readPathOperations(spec).filter(
  (operation) => operation.operationId in firstCalledOperations,
);

/** The operation's request schemas compiled now, as the server compiles those the build did not, and its Ajv's formats. */
function compiledAtRunTime(operation: SpecOperation, validateResponses: boolean) {
  const inputs = operationValidationInputs(spec, operation, { validateResponses, strictBodies: false });
  const validator = compileRequestSchemas(inputs, operation);
  const key = requestSchemaKey(operation);
  return {
    general: validator.ajv.getSchema(key) as unknown as RequestSchemaValidator,
    body: validator.ajvBody.getSchema(key) as unknown as RequestSchemaValidator,
    formats: validator.ajv.formats,
  };
}

type RequestData = {
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  params: object;
  body: unknown;
};

/** The spec's valid calls of the operation as the validator sees them, and calls broken in the ways a client's bug would. */
function requestsToTry(operation: SpecOperation): RequestData[] {
  const valid = listValidCalls(operation).map(({ request }): RequestData => {
    const headers: Record<string, unknown> = { "x-api-key": apiKey };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    if (request.body) headers["content-type"] = request.body.contentType;
    return {
      query: { ...request.query },
      headers,
      params: { ...request.path },
      body: request.body ? JSON.parse(request.body.text) : {},
    };
  });
  const broken: RequestData[] = [];
  for (const call of valid) {
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === "query")) {
      for (const value of ["", "nope", "-1", "1e400", "true", " "]) {
        broken.push({ ...call, query: { ...call.query, [parameter.name]: value } });
      }
    }
    broken.push({ ...call, query: { ...call.query, unknownParameter: "1" } });
    for (const body of [null, 42, "text", [], {}, { requests: [] }, { requests: [{}] }])
      broken.push({ ...call, body });
    const requests = (call.body as { requests?: unknown[] }).requests;
    const [item] = Array.isArray(requests) ? requests : [];
    if (typeof item === "object" && item !== null) {
      const withItem = (changed: unknown) => ({
        ...call,
        body: { ...(call.body as object), requests: [changed] },
      });
      broken.push(withItem({ ...item, unknownMember: true }));
      for (const name of Object.keys(item)) {
        const { [name]: _left, ...without } = item as Record<string, unknown>;
        broken.push(
          withItem(without),
          withItem({ ...item, [name]: null }),
          withItem({ ...item, [name]: 12345 }),
        );
        broken.push(withItem({ ...item, [name]: "x" }), withItem({ ...item, [name]: "9".repeat(80) }));
      }
    }
  }
  return [...valid, ...broken];
}

/** Runs `validate` on a copy of `data`, as the validator does: what it answers, its errors, and what it left of the data. */
function judge(validate: RequestSchemaValidator, data: RequestData) {
  const copy = structuredClone(data);
  const valid = validate(copy);
  return { valid, errors: validate.errors ?? null, data: copy };
}

describe("request schemas compiled by npm run build", () => {
  it("are those of the operations the server warms up before it answers, for the bundled spec", () => {
    expect(generated.operationIds.toSorted()).toEqual(Object.keys(firstCalledOperations).toSorted());
    const precompiled = precompiledRequestsFor(spec);
    expect(precompiled).toBeDefined();
    for (const operationId of generated.operationIds)
      expect(precompiled?.(operationId), operationId).toBeDefined();
    expect(precompiled?.("getSecurePayment")).toBeUndefined();
  });

  it("are kept under the key the validator makes of each operation's requests", () => {
    expect(operations.map(requestSchemaKey).toSorted()).toEqual([
      "GET-/v1/currencies-not_provided",
      "POST-/v2/payouts/batch-application/json",
      "POST-/v2/secure-payments-application/json",
    ]);
  });

  for (const validateResponses of [true, false]) {
    it(`judge every request as the schemas compiled at run time do, errors and coercions included (validateResponses ${validateResponses})`, () => {
      let compared = 0;
      let refused = 0;
      for (const operation of operations) {
        const runTime = compiledAtRunTime(operation, validateResponses);
        const built = precompiledRequestsFor(spec)?.(operation.operationId)?.(runTime.formats);
        for (const data of requestsToTry(operation)) {
          const label = `${operation.operationId}: ${JSON.stringify(data)}`;
          for (const part of ["general", "body"] as const) {
            const precompiled = built?.[part];
            expect(precompiled, label).toBeDefined();
            const expected = judge(runTime[part], data);
            expect(judge(precompiled as RequestSchemaValidator, data), `${part} of ${label}`).toEqual(
              expected,
            );
            if (!expected.valid) refused++;
            compared++;
          }
        }
      }
      // Each operation's valid calls and their broken variants: a guard against comparing nothing, or only passes.
      expect(compared).toBeGreaterThan(250);
      expect(refused).toBeGreaterThan(100);
    });
  }

  it("refuse a query parameter outside its enum and drop a body's unknown member, as the validator does", () => {
    const currencies = operations.find(
      (operation) => operation.operationId === "listCurrencies",
    ) as SpecOperation;
    const built = precompiledRequestsFor(spec)?.("listCurrencies")?.(
      compiledAtRunTime(currencies, true).formats,
    );
    const query = { network: "base", firstOnly: "yes" };
    expect(built?.general({ query, headers: {}, params: {}, body: {} })).toBe(false);
    expect(built?.general.errors?.map(({ instancePath, keyword }) => `${instancePath} ${keyword}`)).toEqual([
      "/query/firstOnly enum",
    ]);

    const secure = operations.find(
      (operation) => operation.operationId === "createSecurePayment",
    ) as SpecOperation;
    const payment = precompiledRequestsFor(spec)?.("createSecurePayment")?.(
      compiledAtRunTime(secure, true).formats,
    );
    const body = { requests: [{ ...usdcOnBase(), unknownMember: 1 }] };
    expect(payment?.body({ query: {}, headers: {}, params: {}, body })).toBe(true);
    expect(body.requests[0]).toEqual(usdcOnBase());
  });

  for (const strictBodies of [false, true]) {
    it(`${strictBodies ? "are not used" : "are used"} by a server on the bundled spec ${strictBodies ? "with" : "without"} strictBodies`, async () => {
      const server = await startTestServer({
        warmUp: false,
        config: { ...createDefaultConfig(), strictBodies },
      });
      try {
        const answer = await server.call("POST", "/v2/secure-payments", {
          body: { requests: [usdcOnBase()] },
        });
        expect(answer.status).toBe(201);
        const set = sharedValidators(spec, { validateResponses: true, strictBodies });
        const inUse = set.validators.get("createSecurePayment")?.requestValidator;
        expect(inUse).toBeDefined();
        const { ajv, ajvBody } = requestValidatorParts(inUse as RequestValidator);
        const key = requestSchemaKey(
          operations.find((o) => o.operationId === "createSecurePayment") as SpecOperation,
        );
        const loaded = generated.load(ajv.formats).createSecurePayment;
        // generated.load makes new functions at each call: compare by their code, not by identity.
        expect(String(ajvBody.getSchema(key)) === String(loaded?.body)).toBe(!strictBodies);
        expect(String(ajv.getSchema(key)) === String(loaded?.general)).toBe(!strictBodies);
      } finally {
        await server.close();
      }
    });
  }
});
