import { describe, expect, it } from "vitest";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { isObject, type JsonObject, loadBundledSpec, resolveNode } from "../../src/spec/spec-document.ts";
import {
  limits,
  type OperationCheck,
  operations,
  publishedOperations,
  transactionValueForms,
  type ValueCheck,
  webhookEvents,
  webhookSignatureHeader,
} from "./checklist.ts";

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const resolve = (node: unknown) => resolveNode(spec, node) as JsonObject;

function findOperation(check: OperationCheck): JsonObject {
  const item = resolve((spec.paths as JsonObject)[check.path]);
  const operation = item?.[check.method];
  if (!isObject(operation)) throw new Error(`${check.method.toUpperCase()} ${check.path} is not in the spec`);
  return operation;
}

function parametersOf(check: OperationCheck): JsonObject[] {
  const item = resolve((spec.paths as JsonObject)[check.path]);
  const shared = Array.isArray(item.parameters) ? item.parameters : [];
  const own = findOperation(check).parameters;
  return [...shared, ...(Array.isArray(own) ? own : [])].map(resolve);
}

/** The schemas a dotted path reaches, walking properties, array items and every branch of oneOf/anyOf/allOf. */
function schemasAt(root: unknown, dottedPath: string): JsonObject[] {
  let current = [resolve(root)];
  for (const segment of dottedPath.split(".").filter(Boolean)) {
    const next: JsonObject[] = [];
    const visit = (schema: JsonObject) => {
      for (const key of ["oneOf", "anyOf", "allOf"] as const) {
        const branches = schema[key];
        if (Array.isArray(branches)) for (const branch of branches) visit(resolve(branch));
      }
      if (isObject(schema.items)) visit(resolve(schema.items));
      if (isObject(schema.properties) && segment in schema.properties) {
        next.push(resolve(schema.properties[segment]));
      }
    };
    for (const schema of current) visit(schema);
    current = next;
  }
  return current;
}

/** The schema that applies to one value inside arrays: `requests.payee` is the payee of one item. */
function valueSchemaAt(root: unknown, dottedPath: string): JsonObject {
  const found = schemasAt(root, dottedPath);
  if (found.length === 0) throw new Error(`no schema at ${dottedPath}`);
  return found[0] as JsonObject;
}

function requiredAt(root: unknown, dottedPath: string): boolean {
  const segments = dottedPath.split(".");
  const field = segments.pop() as string;
  const parents = segments.length === 0 ? [resolve(root)] : schemasAt(root, segments.join("."));
  return parents.some((parent) => {
    const items = isObject(parent.items) ? resolve(parent.items) : parent;
    return Array.isArray(items.required) && items.required.includes(field);
  });
}

function expectValues(schema: unknown, check: ValueCheck) {
  for (const value of check.accepts) {
    const errors = validator.errorsFor(schema, value);
    expect(errors, `${check.name} should accept ${JSON.stringify(value)}: ${describeErrors(errors)}`).toEqual(
      [],
    );
  }
  for (const value of check.rejects) {
    expect(
      validator.errorsFor(schema, value).length,
      `${check.name} should reject ${JSON.stringify(value)}`,
    ).toBeGreaterThan(0);
  }
}

function jsonBodySchema(operation: JsonObject): unknown {
  const body = resolve(operation.requestBody);
  return (body.content as Record<string, JsonObject>)["application/json"]?.schema;
}

function successSchema(operation: JsonObject, status: string): unknown {
  const response = resolve((operation.responses as JsonObject)[status]);
  return (response.content as Record<string, JsonObject>)["application/json"]?.schema;
}

describe.each(operations)("$method $path", (check) => {
  const operation = findOperation(check);

  it("exists with an operationId", () => {
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  const credentials = {
    apiKey: "x-api-key",
    apiKeyOrClientId: "x-api-key, or x-client-id with Origin",
    orOrchestratorPair: "x-api-key, or x-client-id with Origin, or both with x-orchestrator-key",
  };
  it(`requires ${credentials[check.auth]}`, () => {
    const security = operation.security ?? spec.security;
    const clientId = { ClientIdAuth: [], ClientOrigin: [] };
    const expected =
      check.auth === "apiKey"
        ? [{ ApiKeyAuth: [] }]
        : check.auth === "apiKeyOrClientId"
          ? [{ ApiKeyAuth: [] }, clientId]
          : [{ ApiKeyAuth: [] }, clientId, { OrchestratorKeyAuth: [], ...clientId }];
    expect(security).toEqual(expected);
  });

  it(`answers ${[check.successStatus, ...(check.statedStatuses ?? [])].join(", ")}`, () => {
    const responses = Object.keys(operation.responses as JsonObject);
    for (const status of [check.successStatus, ...(check.statedStatuses ?? [])])
      expect(responses).toContain(status);
  });

  for (const [location, params] of [
    ["path", check.pathParams],
    ["query", check.queryParams],
  ] as const) {
    for (const param of params ?? []) {
      it(`has ${location} parameter ${param.name} (${param.required ? "required" : "optional"})`, () => {
        const found = parametersOf(check).find(
          (candidate) => candidate.name === param.name && candidate.in === location,
        );
        expect(found, `${location} parameter ${param.name}`).toBeDefined();
        expect(Boolean(found?.required)).toBe(Boolean(param.required));
        expectValues(found?.schema, param);
      });
    }
  }

  if (check.validBody) {
    const validBody = check.validBody;
    it("accepts a complete valid body and rejects unknown fields", () => {
      const schema = jsonBodySchema(operation);
      expect(describeErrors(validator.errorsFor(schema, validBody))).toBe("");
      expect(validator.errorsFor(schema, { ...validBody, unexpectedField: "x" }).length).toBeGreaterThan(0);
    });
    for (const field of check.body ?? []) {
      it(`has body field ${field.name}${field.required === undefined ? "" : field.required ? " (required)" : " (optional)"}`, () => {
        const schema = jsonBodySchema(operation);
        expectValues(valueSchemaAt(schema, field.name), field);
        if (field.required !== undefined) expect(requiredAt(schema, field.name)).toBe(field.required);
        if (field.required && !field.name.includes(".")) {
          const { [field.name]: _removed, ...withoutField } = validBody;
          expect(
            validator.errorsFor(schema, withoutField).length,
            `body without ${field.name}`,
          ).toBeGreaterThan(0);
        }
      });
    }
  }

  if (check.responseFields.length > 0) {
    it("documents every response field of the given spec", () => {
      const schema = successSchema(operation, check.successStatus);
      const missing = check.responseFields.filter((field) => schemasAt(schema, field).length === 0);
      expect(missing).toEqual([]);
    });
  }
});

const batchCheck = operations.find((check) => check.path === "/v2/payouts/batch") as OperationCheck;

describe("batch payout body", () => {
  const schema = jsonBodySchema(findOperation(batchCheck));
  const requestId = "01e273ecc29d4b526df3a0f1f05ffc59372af8752c2b678096e49ac270416a7cdb";
  const item = {
    payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
    amount: "1",
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-base",
  };

  it("takes exactly one of requests or requestIds", () => {
    expect(validator.errorsFor(schema, { requests: [item] })).toEqual([]);
    expect(validator.errorsFor(schema, { requestIds: [requestId] })).toEqual([]);
    expect(validator.errorsFor(schema, { requests: [item], requestIds: [requestId] }).length).toBeGreaterThan(
      0,
    );
    expect(validator.errorsFor(schema, { payer: item.payee }).length).toBeGreaterThan(0);
  });

  it(`takes at most ${limits.maxBatchItems} items`, () => {
    expect(validator.errorsFor(schema, { requests: Array(limits.maxBatchItems).fill(item) })).toEqual([]);
    expect(
      validator.errorsFor(schema, { requests: Array(limits.maxBatchItems + 1).fill(item) }).length,
    ).toBeGreaterThan(0);
    expect(
      validator.errorsFor(schema, { requestIds: Array(limits.maxBatchItems + 1).fill(requestId) }).length,
    ).toBeGreaterThan(0);
  });
});

describe("resources", () => {
  it("Transaction.value accepts the number 0, a hex string and a BigNumber object", () => {
    const transaction = resolve((spec.components as JsonObject).schemas as JsonObject).Transaction;
    const valueSchema = valueSchemaAt(transaction, "value");
    expectValues(valueSchema, { name: "value", ...transactionValueForms });
  });
});

describe("webhooks", () => {
  const webhooks = spec.webhooks as JsonObject;

  it.each(webhookEvents)("%s is documented with a signed JSON payload", (event) => {
    const operation = resolve(resolve(webhooks[event]).post);
    const signature = (operation.parameters as unknown[])
      .map(resolve)
      .find(
        (parameter) =>
          parameter.in === "header" && String(parameter.name).toLowerCase() === webhookSignatureHeader,
      );
    expect(signature?.required).toBe(true);
    expectValues(signature?.schema, {
      name: webhookSignatureHeader,
      accepts: ["757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"],
      rejects: ["757107EA0EB2509FC211221CCE984B8A37570B6D7586C22C46F4379C8B043E17", "757107ea", ""],
    });
    const payload = jsonBodySchema(operation);
    expect(schemasAt(payload, "event")[0]).toMatchObject({ const: event });
    const requestId = "01e273ecc29d4b526df3a0f1f05ffc59372af8752c2b678096e49ac270416a7cdb";
    expect(schemasAt(payload, "requestId").length).toBeGreaterThan(0);
    expect(schemasAt(payload, "requestID").length).toBeGreaterThan(0);
    expect(validator.errorsFor(payload, { event: "payment.unknown", requestId }).length).toBeGreaterThan(0);
  });
});

describe("document", () => {
  it("declares the 2020-12 JSON Schema dialect", () => {
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("serves v1 and v2 paths exactly as given or published (besides the reference server's /sandbox paths)", () => {
    const servicePaths = Object.keys(spec.paths as JsonObject).filter(
      (path) => !path.startsWith("/sandbox/"),
    );
    const expected = [...operations, ...publishedOperations].map((check) => check.path);
    expect(servicePaths.sort()).toEqual([...new Set(expected)].sort());
    for (const { method, path } of publishedOperations) {
      expect(isObject(resolve((spec.paths as JsonObject)[path])[method]), `${method} ${path}`).toBe(true);
    }
  });

  it("names a local sandbox and the mock as servers", () => {
    expect((spec.servers as JsonObject[]).map((server) => server.url)).toEqual([
      "http://127.0.0.1:3000",
      "http://127.0.0.1:4010",
    ]);
  });

  it("describes every tag it uses, one tag per operation", () => {
    const tags = new Map((spec.tags as JsonObject[]).map((tag) => [tag.name, tag.description]));
    for (const check of operations) {
      const operationTags = findOperation(check).tags as string[];
      expect(operationTags).toHaveLength(1);
      expect(String(tags.get(operationTags[0]))).not.toBe("");
    }
  });
});
