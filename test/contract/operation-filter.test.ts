import { describe, expect, it } from "vitest";
import { planContractChecks, UnknownOperationError } from "../../src/contract/run-suite.ts";

const target = { baseUrl: "http://127.0.0.1:1", apiKey: "k" };

describe("planContractChecks with operations", () => {
  it("keeps the checks of the named operations, stateful scenarios included, and only those", () => {
    const every = planContractChecks(target, { stateful: true });
    const chosen = ["createSecurePayment", "findSecurePayment"];
    const some = planContractChecks(target, { stateful: true, operations: chosen });
    const expected = every.filter((check) => chosen.includes(check.operationId));
    expect(some.map((check) => `${check.operationId} › ${check.check}`)).toEqual(
      expected.map((check) => `${check.operationId} › ${check.check}`),
    );
    expect(new Set(some.map((check) => check.operationId))).toEqual(new Set(chosen));
    expect(some.length).toBeLessThan(every.length);
  });

  it("refuses an operationId the spec does not have, naming it", () => {
    expect(() =>
      planContractChecks(target, { stateful: false, operations: ["listCurrencies", "nope", ""] }),
    ).toThrow(new UnknownOperationError('no operation of the spec has the operationId "nope", ""'));
  });
});
