import { describe, expect, it } from "vitest";
import generated from "../../generated/response-validators.cjs";
import { sharedValidators } from "../../src/server/http/openapi-validation.ts";
import { operationValidationInputs } from "../../src/server/http/operation-validation-inputs.ts";
import { precompiledResponsesFor } from "../../src/server/http/precompiled-responses.ts";
import { responseValidatorFor, type SchemaValidator } from "../../src/server/http/response-check.ts";
import { firstCalledOperations } from "../../src/server/warm-up.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { startTestServer, usdcOnBase } from "./helpers.ts";

const spec = loadBundledSpec();
const operations = readPathOperations(spec).filter(
  (operation) => operation.operationId in firstCalledOperations,
);

/** The operation's response schemas compiled now, as the server compiles those the build did not, and its Ajv's formats. */
function compiledAtRunTime(operationId: string, strictBodies: boolean) {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  const inputs = operationValidationInputs(spec, operation, { validateResponses: true, strictBodies });
  const validator = responseValidatorFor(
    inputs.responseDocument,
    inputs.responseAjvOptions,
    inputs.validateResponses,
  );
  return {
    validators: validator.buildValidators(inputs.responses, inputs.responseCacheKey),
    formats: validator.ajvBody.formats,
  };
}

/** The spec's examples of an answer, and answers that break it in the ways a handler's bug would. */
function answersToTry(examples: unknown[]): unknown[] {
  const broken: unknown[] = [null, 42, "text", [], {}, [42], [{}]];
  for (const example of examples) {
    const items = Array.isArray(example) ? example : [example];
    for (const item of items) {
      if (typeof item !== "object" || item === null) continue;
      broken.push({ ...item, unknownMember: true });
      for (const name of Object.keys(item)) {
        const { [name]: _left, ...without } = item as Record<string, unknown>;
        broken.push(without, { ...item, [name]: null }, { ...item, [name]: 12345 }, { ...item, [name]: "x" });
        if (Array.isArray(example)) broken.push([without]);
      }
    }
  }
  return [...examples, ...broken];
}

describe("response schemas compiled by npm run build", () => {
  it("are those of the operations the server warms up before it answers, for the bundled spec", () => {
    expect(generated.operationIds.toSorted()).toEqual(Object.keys(firstCalledOperations).toSorted());
    const precompiled = precompiledResponsesFor(spec);
    expect(precompiled).toBeDefined();
    for (const operationId of generated.operationIds)
      expect(precompiled?.(operationId), operationId).toBeDefined();
    expect(precompiled?.("getSecurePayment")).toBeUndefined();
  });

  for (const strictBodies of [false, true]) {
    it(`judge every answer as the schemas compiled at run time do, errors included (strictBodies ${strictBodies})`, () => {
      let compared = 0;
      for (const operation of operations) {
        const runTime = compiledAtRunTime(operation.operationId, strictBodies);
        const built = precompiledResponsesFor(spec)?.(operation.operationId)?.(runTime.formats);
        expect(Object.keys(built ?? {}).toSorted(), operation.operationId).toEqual(
          Object.keys(runTime.validators).toSorted(),
        );
        for (const [status, byMediaType] of Object.entries(runTime.validators)) {
          expect(Object.keys(built?.[status] ?? {}), `${operation.operationId} ${status}`).toEqual(
            Object.keys(byMediaType),
          );
          for (const [mediaType, validate] of Object.entries(byMediaType)) {
            const precompiled = built?.[status]?.[mediaType] as SchemaValidator;
            const examples = (operation.responses[status]?.content[mediaType]?.examples ?? []).map(
              (example) => example.value,
            );
            for (const answer of answersToTry(examples)) {
              const expected = validate({ response: answer });
              const label = `${operation.operationId} ${status} ${mediaType}: ${JSON.stringify(answer)}`;
              expect(precompiled({ response: answer }), label).toBe(expected);
              expect(precompiled.errors, label).toEqual(validate.errors);
              compared++;
            }
          }
        }
      }
      // Every status's examples and their broken variants: a guard against comparing nothing.
      expect(compared).toBeGreaterThan(200);
    });
  }

  it("pass the spec's examples of each success answer, and refuse an empty object", () => {
    for (const operation of operations) {
      const status = String(operation.successStatus);
      const runTime = compiledAtRunTime(operation.operationId, false);
      const built = precompiledResponsesFor(spec)?.(operation.operationId)?.(runTime.formats);
      const validate = built?.[status]?.["application/json"] as SchemaValidator;
      const examples = operation.responses[status]?.content["application/json"]?.examples ?? [];
      expect(examples.length, operation.operationId).toBeGreaterThan(0);
      for (const example of examples) expect(validate({ response: example.value }), example.name).toBe(true);
      expect(validate({ response: {} }), operation.operationId).toBe(false);
    }
  });

  it("check the answers of a server on the bundled spec: its first secure payment's answer is checked by them", async () => {
    const server = await startTestServer({ warmUp: false });
    try {
      const answer = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] } });
      expect(answer.status).toBe(201);
      const { compiledResponses } = sharedValidators(spec, { validateResponses: true, strictBodies: false });
      const loaded = generated.load({});
      const inUse = [...compiledResponses.values()].flatMap((byMediaType) => Object.values(byMediaType));
      const success = loaded.createSecurePayment?.["201"]?.["application/json"];
      expect(success).toBeDefined();
      // generated.load makes new functions at each call: compare by their code, not by identity.
      expect(inUse.map(String)).toContain(String(success));
    } finally {
      await server.close();
    }
  });
});
