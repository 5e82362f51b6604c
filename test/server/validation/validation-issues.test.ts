import { describe, expect, it } from "vitest";
import {
  collectExclusiveBodyFields,
  withValueShown,
} from "../../../src/server/validation/validation-issues.ts";
import { loadBundledSpec } from "../../../src/spec/spec-document.ts";

describe("collectExclusiveBodyFields", () => {
  it("reads the bodies that take exactly one of two fields from the spec's oneOf of required fields", () => {
    expect(collectExclusiveBodyFields(loadBundledSpec())).toEqual(
      new Map([
        ["createBatchPayout", ["requests", "requestIds"]],
        ["setSandboxClock", ["advanceSeconds", "now"]],
      ]),
    );
  });

  it("ignores a oneOf whose branches do more than require one field", () => {
    const schema = { oneOf: [{ required: ["a"] }, { required: ["b"], properties: { b: {} } }] };
    const spec = {
      paths: {
        "/x": {
          post: { operationId: "postX", requestBody: { content: { "application/json": { schema } } } },
        },
      },
    };
    expect(collectExclusiveBodyFields(spec)).toEqual(new Map());
  });
});

describe("withValueShown", () => {
  it("shows a value whose JSON is up to 80 characters, and leaves out a longer one", () => {
    expect(withValueShown("must be a number", "abc")).toBe('must be a number, got "abc"');
    expect(withValueShown("must be a number", { a: [1, null] })).toBe('must be a number, got {"a":[1,null]}');
    expect(withValueShown("must be a number", "x".repeat(78))).toBe(
      `must be a number, got "${"x".repeat(78)}"`,
    );
    expect(withValueShown("must be a number", "x".repeat(79))).toBe("must be a number");
    expect(withValueShown("must be a number", "x".repeat(1_000_000))).toBe("must be a number");
    expect(withValueShown("must be a number", ["x".repeat(80)])).toBe("must be a number");
    expect(withValueShown("must be a number", undefined)).toBe("must be a number");
  });
});
