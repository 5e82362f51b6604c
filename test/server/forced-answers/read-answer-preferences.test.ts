import { describe, expect, it } from "vitest";
import { readAnswerPreferences } from "../../../src/server/http/prefer-header.ts";

describe("readAnswerPreferences", () => {
  it("reads code and example among other preferences, in any case, with quoted values", () => {
    expect(readAnswerPreferences('respond-async, CODE=404; foo=bar, Example="not, found"')).toEqual({
      code: "404",
      example: "not, found",
    });
  });

  it("keeps the first occurrence of a preference, as Prism does, and joins repeated headers", () => {
    expect(readAnswerPreferences(["code=429", "code=500, example=rateLimited"])).toEqual({
      code: "429",
      example: "rateLimited",
    });
  });

  it("reads neither when the header names neither", () => {
    expect(readAnswerPreferences("return=minimal, dynamic=true")).toEqual({
      code: undefined,
      example: undefined,
    });
  });
});
