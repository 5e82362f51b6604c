import { describe, expect, it } from "vitest";
import { maxListedIssues } from "../../../src/server/problems.ts";
import { screenBody } from "../../../src/server/validation/body-screen.ts";
import { readBodyLimits } from "../../../src/spec/body-limits.ts";
import { loadBundledSpec } from "../../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const limits = readBodyLimits(spec, { $ref: "#/components/schemas/CreateSecurePaymentRequest" });
if (!limits) throw new Error("the secure payment body has limits");
const item = { payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7", amount: "1.00" };

describe("screenBody (the body of createSecurePayment)", () => {
  it("refuses an array over its maxItems by its length alone", () => {
    const screened = screenBody({ requests: new Array(100_001).fill({}) }, limits, false);
    expect(screened).toEqual({
      refused: true,
      issues: [{ path: "/body/requests", message: "must NOT have more than 100 items, got 100001" }],
      total: 1,
    });
  });

  it("drops members the schema does not name unless strictBodies is on", () => {
    const screened = screenBody({ requests: [{ ...item, note: "x" }], extra: 1 }, limits, false);
    expect(screened).toEqual({ refused: false, body: { requests: [item] } });
  });

  it("with strictBodies, leaves a few unknown members to the schema and refuses more than an answer lists", () => {
    const few = { requests: [{ ...item, note: "x" }] };
    expect(screenBody(few, limits, true)).toEqual({ refused: false, body: few });
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`k${index}`, index]));
    const screened = screenBody({ requests: [item], ...many }, limits, true);
    if (!screened.refused) throw new Error("refusal expected");
    expect(screened.total).toBe(1000);
    expect(screened.issues).toHaveLength(maxListedIssues);
    expect(screened.issues[0]).toEqual({
      path: "/body/k0",
      message:
        "is not a member the spec describes here: remove it (the server runs with strictBodies), got 0",
    });
  });
});
