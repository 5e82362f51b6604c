import { describe, expect, it } from "vitest";
import {
  operationValidatorsOf,
  type RequestInputs,
} from "../../../src/server/validation/operation-validators.ts";
import { readPathOperations, type SpecOperation } from "../../../src/spec/operations.ts";
import { loadBundledSpec, specExample } from "../../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const operations = new Map(readPathOperations(spec).map((operation) => [operation.operationId, operation]));
const operation = (operationId: string): SpecOperation => {
  const found = operations.get(operationId);
  if (!found) throw new Error(`the spec has no operation ${operationId}`);
  return found;
};
const validatorsOf = operationValidatorsOf(spec, false);
const inputs = (parts: Partial<RequestInputs>): RequestInputs => ({
  path: {},
  query: {},
  headers: {},
  body: undefined,
  ...parts,
});
const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

describe("operationValidatorsOf", () => {
  it("compiles each operation's checks once per spec and strictness, shared by every server", () => {
    const searchPayments = operation("searchPayments");
    expect(operationValidatorsOf(spec, false)(searchPayments)).toBe(validatorsOf(searchPayments));
    expect(operationValidatorsOf(spec, true)(searchPayments)).not.toBe(validatorsOf(searchPayments));
    expect(operationValidatorsOf(structuredClone(spec), false)(searchPayments)).not.toBe(
      validatorsOf(searchPayments),
    );
  });
});

describe("checkRequest (searchPayments, listCurrencies, createSecurePayment)", () => {
  it("coerces query values to their documented types and fills in documented defaults", () => {
    const query: Record<string, unknown> = { limit: "5" };
    expect(validatorsOf(operation("searchPayments")).checkRequest(inputs({ query }))).toEqual([]);
    expect(query).toEqual({ limit: 5, offset: 0 });
  });

  it("refuses the first undocumented or empty query parameter before checking any value", () => {
    const check = validatorsOf(operation("searchPayments"));
    expect(check.checkRequest(inputs({ query: { limit: "x", netwrk: "base", other: "" } }))).toEqual([
      { path: "/query/netwrk", message: "Unknown query parameter 'netwrk'" },
    ]);
    expect(check.checkRequest(inputs({ query: { txHash: "" } }))).toEqual([
      { path: "/query/txHash", message: "Empty value found for query parameter 'txHash'" },
    ]);
  });

  it("reports every issue with its JSON Pointer, keyword and the allowed values of an enum", () => {
    const issues = validatorsOf(operation("searchPayments")).checkRequest(
      inputs({ query: { limit: "1000", offset: "-1", type: "gift" } }),
    );
    expect(issues).toContainEqual({
      path: "/query/limit",
      message: "must be <= 100",
      errorCode: "maximum.openapi.validation",
    });
    expect(issues).toContainEqual({
      path: "/query/offset",
      message: "must be >= 0",
      errorCode: "minimum.openapi.validation",
    });
    const typeIssue = issues.find((issue) => issue.path === "/query/type");
    expect(typeIssue?.errorCode).toBe("enum.openapi.validation");
    expect(typeIssue?.message).toMatch(/^must be equal to one of the allowed values: direct, conversion/);
  });

  it("names a missing member in the path, under /body", () => {
    const check = validatorsOf(operation("createSecurePayment"));
    expect(check.checkRequest(inputs({ body: {} }))).toEqual([
      {
        path: "/body/requests",
        message: "must have required property 'requests'",
        errorCode: "required.openapi.validation",
      },
    ]);
    expect(
      check.checkRequest(inputs({ body: { requests: [{ payee, amount: "1.00", invoiceCurrency: "USD" }] } })),
    ).toContainEqual({
      path: "/body/requests/0/paymentCurrency",
      message: "must have properties payee, paymentCurrency when property invoiceCurrency is present",
      errorCode: "dependentRequired.openapi.validation",
    });
  });

  it("accepts the spec's own example bodies", () => {
    const create = operation("createSecurePayment");
    for (const { value } of create.body?.examples ?? []) {
      expect(validatorsOf(create).checkRequest(inputs({ body: structuredClone(value) }))).toEqual([]);
    }
    expect(create.body?.examples.length).toBeGreaterThan(0);
  });
});

describe("checkResponse", () => {
  const listCurrencies = validatorsOf(operation("listCurrencies"));
  const currency = specExample("CurrencyUsdcBase");

  it("passes a documented answer, and names what breaks the schema in one that is not", () => {
    expect(() =>
      listCurrencies.checkResponse(200, "application/json; charset=utf-8", [currency]),
    ).not.toThrow();
    expect(() =>
      listCurrencies.checkResponse(200, "application/json", [{ ...(currency as object), decimals: "six" }]),
    ).toThrow("listCurrencies's 200 answer breaks the spec: /response/0/decimals must be integer");
  });

  it("checks a problem against the documented error schema, and refuses a status the operation does not document", () => {
    const problem = { type: "/problems/not-found" };
    expect(() => listCurrencies.checkResponse(400, "application/problem+json", problem)).toThrow(
      "listCurrencies's 400 answer breaks the spec: /response/title must have required property 'title'; /response/status must have required property 'status'",
    );
    expect(() => listCurrencies.checkResponse(418, "application/json", {})).toThrow(
      "listCurrencies answered 418, which the spec does not document",
    );
  });

  it("leaves 5xx answers alone: the error handler answers them", () => {
    expect(() => listCurrencies.checkResponse(503, "application/json", "anything")).not.toThrow();
  });
});
