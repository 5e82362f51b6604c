import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createSchemaValidator } from "../../src/spec/schema-validator.ts";
import { getAtPointer, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { startPrism } from "../support/prism.ts";
import { type SharedPrism, sharedPrism } from "../support/shared-prism.ts";

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const exampleValue = (name: string) => getAtPointer(spec, `/components/examples/${name}/value`);
const problemSchema = { $ref: "#/components/schemas/Problem" };

const validBody = {
  requests: [
    {
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      amount: "125.00",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
    },
  ],
};

let prism: SharedPrism;
beforeAll(async () => {
  prism = await sharedPrism();
});

function createSecurePayment(body: string, headers: Record<string, string> = { "x-api-key": "any" }) {
  return fetch(`${prism.baseUrl}/v2/secure-payments`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

describe("the spec Prism serves", () => {
  it("declares the JSON Schema 2020-12 dialect, without which Prism 5.14.2 skips body validation", () => {
    expect(spec.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("would let an invalid body through with the OpenAPI default dialect (the pitfall the line above avoids)", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "payreq-dialect-"));
    const pitfallSpec = path.join(folder, "openapi.json");
    writeFileSync(
      pitfallSpec,
      JSON.stringify({ ...spec, jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base" }),
    );
    const lenient = await startPrism({ specPath: pitfallSpec });
    try {
      const invalid = { requests: [{ ...validBody.requests[0], payee: "0x1234" }] };
      const response = await fetch(`${lenient.baseUrl}/v2/secure-payments`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "any" },
        body: JSON.stringify(invalid),
      });
      expect(response.status).toBe(201);
    } finally {
      await lenient.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the Prism mock validates requests", () => {
  it("answers a valid body with 201 and the named example", async () => {
    const response = await createSecurePayment(JSON.stringify(validBody));
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(exampleValue("SecurePaymentCreated"));
  });

  it("answers an invalid body with the documented 400 Problem and names the violation", async () => {
    const invalid = structuredClone(validBody);
    (invalid.requests[0] as Record<string, string>).payee = "0x1234";
    const response = await createSecurePayment(JSON.stringify(invalid));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json();
    expect(validator.errorsFor(problemSchema, body)).toEqual([]);
    expect(body).toMatchObject({ status: 400, type: "/problems/validation-failed" });
    // The body is the spec's example; Prism names the real violation in a header.
    expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")).toEqual([
      {
        location: ["request", "body", "requests", "0", "payee"],
        severity: "Error",
        code: "pattern",
        message: 'Request body property requests.0.payee must match pattern "^0x[0-9a-fA-F]{40}$"',
      },
    ]);
  });

  it("rejects an unknown field, because request bodies are closed", async () => {
    const response = await createSecurePayment(JSON.stringify({ ...validBody, memo: "hi" }));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")[0]).toMatchObject({
      code: "additionalProperties",
      message: "Request body must NOT have additional properties; found 'memo'",
    });
  });

  it("answers a missing API key with the documented 401 Problem", async () => {
    const response = await createSecurePayment(JSON.stringify(validBody), {});
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual(exampleValue("ProblemMissingCredentials"));
  });

  it("answers a wrong content type with the documented 415 Problem", async () => {
    const response = await fetch(`${prism.baseUrl}/v2/secure-payments`, {
      method: "POST",
      headers: { "content-type": "text/plain", "x-api-key": "any" },
      body: JSON.stringify(validBody),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual(exampleValue("ProblemUnsupportedMediaType"));
  });
});

// What Prism 5.14.2 does not do like the service; docs/mock.md lists these, and the contract suite
// reports the matching checks as needing a stateful server.
describe("the Prism mock's known limits", () => {
  it("answers malformed JSON with 400 and its own body, not a Problem", async () => {
    const response = await createSecurePayment('{"requests":');
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ error: { code: "invalid_json", message: "Invalid JSON" } });
  });

  it("treats an empty query value as absent instead of checking it", async () => {
    const response = await fetch(`${prism.baseUrl}/v1/currencies?symbol=`, {
      headers: { "x-api-key": "any" },
    });
    expect(response.status).toBe(200);
  });

  it("accepts any API key value and a body over 1 MiB", async () => {
    const padded = JSON.stringify(validBody) + " ".repeat(1024 * 1024);
    const response = await createSecurePayment(padded, { "x-api-key": "not-a-real-key" });
    expect(response.status).toBe(201);
  });

  it("answers an unknown token with the example instead of 404", async () => {
    const response = await fetch(`${prism.baseUrl}/v2/secure-payments/01ARZ3NDEKTSV4RRFFQ69G5FAV`, {
      headers: { "x-api-key": "any" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleValue("SecurePaymentDetailsSingle"));
  });
});
