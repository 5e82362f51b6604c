import { describe, expect, it } from "vitest";
import { buildProblem, problemCatalogue } from "../../src/server/index.ts";
import { loadBundledSpec } from "../support/spec-document.ts";
import { schemaErrors } from "./helpers.ts";

/** The rows of the problem-type table in the spec's description: type -> status. */
function documentedProblemTypes(): Map<string, number> {
  const description = String((loadBundledSpec().info as { description: string }).description);
  const rows = [...description.matchAll(/^\| `(\/problems\/[a-z-]+)` \| (\d{3}) \|/gm)];
  return new Map(rows.map((row) => [row[1] as string, Number(row[2])]));
}

describe("the problem catalogue", () => {
  it("is exactly the table of problem types in the API description", () => {
    const catalogue = new Map(Object.values(problemCatalogue).map((entry) => [entry.type, entry.status]));
    expect(catalogue).toEqual(documentedProblemTypes());
  });

  it("builds bodies that are Problems of the spec, with the compatibility members", () => {
    for (const kind of Object.keys(problemCatalogue) as (keyof typeof problemCatalogue)[]) {
      const body = buildProblem(kind, "What went wrong.", { instance: "/v1/currencies", requestId: "req-1" });
      expect(schemaErrors("Problem", body), kind).toBe("");
      expect(body.statusCode).toBe(body.status);
      expect(body.message).toBe(body.detail);
    }
    expect(buildProblem("rateLimited", "Slow down.", { instance: "/x", requestId: "r" })).toEqual({
      type: "/problems/rate-limited",
      title: "Too many requests",
      status: 429,
      detail: "Slow down.",
      instance: "/x",
      statusCode: 429,
      error: "Too Many Requests",
      message: "Slow down.",
      requestId: "r",
    });
  });

  it("lists validation issues only when there are some", () => {
    const issues = [{ path: "/query/wallet", message: "must be an EVM address" }];
    expect(buildProblem("validationFailed", "x", { instance: "/", requestId: "r", issues }).errors).toEqual(
      issues,
    );
    expect(
      "errors" in buildProblem("validationFailed", "x", { instance: "/", requestId: "r", issues: [] }),
    ).toBe(false);
  });
});
