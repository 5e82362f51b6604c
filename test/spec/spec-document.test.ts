import { describe, expect, it } from "vitest";
import { getAtPointer, resolveNode } from "../../src/spec/spec-document.ts";

describe("JSON Pointers into a document (src/spec/spec-document.ts)", () => {
  const document = { "a/b": { "c~d": ["zero", "one"], "~1": "tilde-one" }, "": { x: 1 } };

  it("unescapes ~1 and ~0 in that order and indexes arrays", () => {
    expect(getAtPointer(document, "/a~1b/c~0d/1")).toBe("one");
    // "~01" is "~1" unescaped: a tilde, then a one, not a slash.
    expect(getAtPointer(document, "/a~1b/~01")).toBe("tilde-one");
    expect(getAtPointer(document, "/a~1b/c~0d/2")).toBeUndefined();
    expect(getAtPointer(document, "/a~1b/missing/0")).toBeUndefined();
  });

  it("reads each document's own value for a pointer it has read in another", () => {
    const other = { "a/b": { "c~d": ["first", "second"] } };
    expect(getAtPointer(document, "/a~1b/c~0d/0")).toBe("zero");
    expect(getAtPointer(other, "/a~1b/c~0d/0")).toBe("first");
    expect(getAtPointer(document, "/a~1b/c~0d/0")).toBe("zero");
  });

  it("follows local references until a node without one", () => {
    const spec = {
      components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { type: "string" } } },
    };
    expect(resolveNode(spec, { $ref: "#/components/schemas/A" })).toEqual({ type: "string" });
    expect(() => resolveNode(spec, { $ref: "#/components/schemas/C" })).toThrow(
      "unresolved reference #/components/schemas/C",
    );
  });
});
