import { describe, expect, it } from "vitest";
import { findStaleGeneratedFiles } from "../../scripts/check-generated.ts";

describe("generated files", () => {
  it("match a fresh build of openapi/ byte for byte", () => {
    expect(findStaleGeneratedFiles(), "run `npm run build` and commit the result").toEqual([]);
  });
});
