import { describe, expect, it } from "vitest";
import { collectExclusiveBodyFields } from "../../src/server/http/validation-issues.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";

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
