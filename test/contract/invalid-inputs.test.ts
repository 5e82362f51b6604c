import { describe, expect, it } from "vitest";
import { listInvalidInputs, oversizedBodyBytes } from "../../src/contract/invalid-inputs.ts";
import { rejectionStatuses, validCallStatuses } from "../../src/contract/operation-checks.ts";
import { deriveUnknownId } from "../../src/contract/unknown-id.ts";
import { listValidCalls } from "../../src/contract/valid-inputs.ts";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const operations = readPathOperations(spec);

function operation(operationId: string): SpecOperation {
  const found = operations.find((entry) => entry.operationId === operationId);
  if (!found) throw new Error(`${operationId} is not in the spec`);
  return found;
}

function inputsOf(operationId: string) {
  const target = operation(operationId);
  const [call] = listValidCalls(target);
  if (!call) throw new Error(`${operationId} has no valid call`);
  return listInvalidInputs(spec, validator, target, call);
}

/** The ajv keywords that report the reason a derived input's check names. */
function reasonKeywords(reason: string): string[] {
  if (reason === "missing (required)") return ["required"];
  if (reason.startsWith("unknown field ")) return ["additionalProperties", "unevaluatedProperties"];
  if (reason === "wrong type" || reason === "breaks integer") return ["type"];
  const broken = /^breaks (\w+)$/.exec(reason)?.[1];
  if (broken === undefined) throw new Error(`no keyword for the reason "${reason}"`);
  return [broken];
}

describe("valid calls", () => {
  it.each(operations.map((entry) => [entry.operationId, entry] as const))(
    "%s: built from the spec's examples, each body valid against its schema",
    (_operationId, target) => {
      const calls = listValidCalls(target);
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        if (target.body && call.request.body) {
          expect(validator.errorsFor(target.body.schema, call.bodyValue), call.exampleName).toEqual([]);
        }
        for (const parameter of target.parameters.filter((entry) => entry.in === "path")) {
          expect(call.request.path[parameter.name], parameter.name).toBe(String(parameter.example));
        }
      }
    },
  );

  it("builds the secure-payment call from the spec's named examples, one call per example", () => {
    const calls = listValidCalls(operation("createSecurePayment"));
    expect(calls.map((call) => call.exampleName)).toEqual(["singlePayment", "batchPayment", "destination"]);
    expect(calls[0]?.request).toEqual({
      path: {},
      query: {},
      headers: {},
      body: {
        contentType: "application/json",
        text: JSON.stringify({
          requests: [
            {
              payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
              amount: "125.00",
              invoiceCurrency: "USD",
              paymentCurrency: "USDC-base",
            },
          ],
          reference: "ORDER-2026-0412",
          redirectUrl: "https://shop.example.com/orders/2026-0412/thanks",
        }),
      },
    });
  });
});

describe("invalid inputs derived from the schemas", () => {
  it("covers the recurring-payment update: path pattern, body fields, unknown field, JSON, content type, size", () => {
    const inputs = inputsOf("updateRecurringPayment");
    expect(inputs.map((input) => [input.check, input.expect])).toEqual([
      ["path id: breaks pattern", "invalid-path-value"],
      ["body: missing", "validation"],
      ["body (root): wrong type", "validation"],
      ["body /action: missing (required)", "validation"],
      ["body (root): unknown field unexpectedField", "validation"],
      ["body /action: breaks enum", "validation"],
      ["body /action: wrong type", "validation"],
      ["body: malformed JSON", "malformed-json"],
      ["body: wrong content type text/plain", "unsupported-media-type"],
      ["body: over 1 MiB (valid JSON padded with spaces)", "payload-too-large"],
    ]);
    const bodies = Object.fromEntries(inputs.map((input) => [input.check, input.request.body]));
    expect(bodies["body /action: missing (required)"]?.text).toBe("{}");
    expect(bodies["body /action: breaks enum"]?.text).toBe('{"action":"not-a-listed-value"}');
    expect(bodies["body (root): unknown field unexpectedField"]?.text).toBe(
      '{"action":"cancel","unexpectedField":"x"}',
    );
    expect(bodies["body: malformed JSON"]?.text).toBe('{"action":"cancel"');
    expect(bodies["body: wrong content type text/plain"]).toEqual({
      contentType: "text/plain",
      text: '{"action":"cancel"}',
    });
    expect(bodies["body: missing"]).toBeUndefined();
  });

  it("covers required and constrained query parameters, keeping the valid ones", () => {
    const inputs = inputsOf("listPaymentRoutes");
    expect(inputs.map((input) => input.check)).toEqual([
      "path paymentReference: breaks pattern",
      "query wallet: missing (required)",
      "query wallet: breaks pattern",
      "query amount: breaks pattern",
      "query amount: breaks maxLength",
      "query feePercentage: breaks pattern",
      "query feeAddress: breaks pattern",
    ]);
    const missing = inputs.find((input) => input.check === "query wallet: missing (required)");
    expect(missing?.request).toEqual({
      path: { paymentReference: "0xb3581f0b0f74cc61" },
      query: {},
      headers: {},
    });
  });

  it("reaches into nested items and optional fields absent from the example", () => {
    const checks = inputsOf("createSecurePayment").map((input) => input.check);
    expect(checks).toEqual(
      expect.arrayContaining([
        "body /requests: breaks minItems",
        "body /requests: breaks maxItems",
        "body /requests/0/amount: missing (required)",
        "body /requests/0/payee: breaks pattern",
        "body /requests/0: unknown field unexpectedField",
        "body /requests/0/invoiceCurrency: breaks pattern",
        "body /redirectUrl: breaks format",
      ]),
    );
    const accountType = inputsOf("createPaymentDetails").find(
      (input) => input.check === "body /accountType: breaks enum",
    );
    expect(JSON.parse(accountType?.request.body?.text ?? "{}").accountType).toBe("not-a-listed-value");
  });

  it("lists only bodies the spec rejects, for the reason the check names", () => {
    let derived = 0;
    for (const target of operations) {
      const body = target.body;
      for (const input of inputsOf(target.operationId)) {
        if (!body || input.expect !== "validation" || !input.request.body) continue;
        // "body /requests/0/payee: breaks pattern": the place, then what is wrong there.
        const named = /^body (\S+): (.+)$/.exec(input.check);
        expect(named, input.check).not.toBeNull();
        const [, place = "", reason = ""] = named ?? [];
        const unknownField = /^unknown field (\S+)$/.exec(reason)?.[1];
        // An unknown field is named by its object; the error is about the field.
        const pointer = `${place === "(root)" ? "" : place}${unknownField ? `/${unknownField}` : ""}`;
        const keywords = reasonKeywords(reason);
        const errors = validator.errorsFor(body.schema, JSON.parse(input.request.body.text));
        const blamed = errors.filter((error) => {
          const field = error.params.missingProperty ?? error.params.additionalProperty;
          const at = typeof field === "string" ? `${error.instancePath}/${field}` : error.instancePath;
          return at === pointer && keywords.includes(error.keyword);
        });
        expect(blamed, `${target.operationId} ${input.check}: ${describeErrors(errors)}`).not.toEqual([]);
        derived++;
      }
    }
    expect(derived).toBeGreaterThan(0);
  });

  it("marks an empty query value as something Prism does not check", () => {
    const empty = inputsOf("listCurrencies").find(
      (input) => input.check === "query symbol: breaks minLength",
    );
    expect(empty?.request.query).toEqual({ symbol: "" });
    expect(empty?.mockShortfall).toBe(
      "Prism 5.14.2 treats an empty query value as absent and does not validate it",
    );
  });

  it("pads the oversized body past 1 MiB with whitespace, so that it stays valid JSON", () => {
    const oversized = inputsOf("createSecurePayment").find((input) => input.expect === "payload-too-large");
    const text = oversized?.request.body?.text ?? "";
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(oversizedBodyBytes);
    expect(oversizedBodyBytes).toBe(1_048_577);
    expect(JSON.parse(text)).toEqual(listValidCalls(operation("createSecurePayment"))[0]?.bodyValue);
  });
});

describe("expected statuses", () => {
  it("asks for the status the spec names for each kind of invalid input", () => {
    const create = operation("createSecurePayment");
    expect(rejectionStatuses(create, "validation")).toEqual([400]);
    expect(rejectionStatuses(create, "malformed-json")).toEqual([400]);
    expect(rejectionStatuses(create, "unsupported-media-type")).toEqual([415]);
    expect(rejectionStatuses(create, "payload-too-large")).toEqual([413]);
    expect(rejectionStatuses(operation("checkSecurePaymentToken"), "invalid-path-value")).toEqual([400, 404]);
  });

  it("expects the documented success from a mock, and any non-error documented answer from a real server", () => {
    const check = operation("checkSecurePaymentToken");
    expect(validCallStatuses(check, false)).toEqual([200]);
    expect(validCallStatuses(check, true)).toEqual([200, 400, 404, 409, 423]);
  });
});

describe("unknown ids", () => {
  it("are well formed and differ from the example", () => {
    const ulid = { $ref: "#/components/schemas/Ulid" };
    const requestId = { $ref: "#/components/schemas/RequestId" };
    for (const [schema, example] of [
      [ulid, "01KM9S346Q3D25VT4F5V37E3S3"],
      [requestId, "01e273ecc29d4b526df3a0f1f05ffc59372af8752c2b678096e49ac270416a7cdb"],
    ] as const) {
      const unknown = deriveUnknownId(validator, schema, example);
      expect(unknown).toBeDefined();
      expect(unknown).not.toBe(example);
      expect(validator.errorsFor(schema, unknown)).toEqual([]);
      expect(unknown?.slice(0, 2)).toBe("01");
    }
  });

  it("are not invented when the example has nothing to vary", () => {
    expect(deriveUnknownId(validator, { type: "string" }, "cus_xyz")).toBeUndefined();
  });
});
