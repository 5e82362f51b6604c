import { describe, expect, it } from "vitest";
import {
  findStructureRefusal,
  maxBodyDepth,
  maxBodyStructures,
  pointerAt,
} from "../../src/server/http/json-structure.ts";

const utf8 = (text: string) => Buffer.from(text, "utf8");
const repeated = (count: number, item: string) => new Array(count).fill(item).join(",");

describe("findStructureRefusal", () => {
  it("counts objects, arrays and members at every depth, up to the limit and one past it", () => {
    // The outer array and its empty objects: exactly the limit.
    expect(maxBodyStructures).toBe(10_000);
    expect(findStructureRefusal(utf8(`[${repeated(9_999, "{}")}]`))).toBeUndefined();
    expect(findStructureRefusal(utf8(`[${repeated(10_000, "{}")}]`))).toEqual({
      reason: "tooManyStructures",
      structures: 10_001,
      largest: { offset: 0, kind: "array", size: 10_000 },
    });
    // 2 objects, 1 array and 5,000 objects of one member each, 5,001 members in all.
    const body = ` {"requests": [${repeated(5_000, '{"n": 1}')}]}`;
    expect(findStructureRefusal(utf8(body))).toEqual({
      reason: "tooManyStructures",
      structures: 1 + 1 + 5_000 + 5_001,
      largest: { offset: body.indexOf("["), kind: "array", size: 5_000 },
    });
  });

  it("counts nothing inside strings, escaped quotes included", () => {
    const strings = `[${repeated(20_000, String.raw`"[{\":,\\}]"`)}]`;
    expect(JSON.parse(strings)).toHaveLength(20_000);
    expect(findStructureRefusal(utf8(strings))).toBeUndefined();
    const names = `{${Array.from({ length: 4_000 }, (_, index) => `"k${index}:{[,é"`)
      .map((name) => `${name}: [1, {}]`)
      .join(",")}}`;
    // 1 object, 4,000 members, 4,000 arrays and 4,000 empty objects.
    expect(findStructureRefusal(utf8(names))).toMatchObject({ structures: 12_001 });
  });

  it("names the container with the most items or members, counting an empty one as empty", () => {
    const members = Array.from({ length: 10_001 }, (_, index) => `"k${index}": 0`).join(",");
    const body = `{"lists": [${repeated(600, "[]")}], "wide": {${members}}}`;
    expect(findStructureRefusal(utf8(body))).toEqual({
      reason: "tooManyStructures",
      structures: 1 + 2 + 1 + 600 + 1 + 10_001,
      largest: { offset: body.indexOf('{"k0"'), kind: "object", size: 10_001 },
    });
    // Items of a nested array are that array's, not its parent's.
    const nested = `[[${repeated(10_000, "0")}], 1]`;
    expect(findStructureRefusal(utf8(`[${repeated(10_000, "[]")}]`))).toMatchObject({
      largest: { offset: 0, kind: "array", size: 10_000 },
    });
    expect(findStructureRefusal(utf8(nested))).toBeUndefined();
  });

  it("refuses nesting deeper than the limit, and not at the limit", () => {
    expect(maxBodyDepth).toBe(64);
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    expect(findStructureRefusal(utf8(nested(64)))).toBeUndefined();
    expect(findStructureRefusal(utf8(nested(65)))).toEqual({ reason: "tooDeep" });
    expect(findStructureRefusal(utf8(`{"a":${nested(63)}}`))).toBeUndefined();
    expect(findStructureRefusal(utf8(`{"a":${nested(64)}}`))).toEqual({ reason: "tooDeep" });
  });

  it("scans malformed JSON without failing, leaving it to the parser", () => {
    expect(findStructureRefusal(utf8("]]]}}}:,,,"))).toBeUndefined();
    expect(findStructureRefusal(utf8('"unterminated [[[{'))).toBeUndefined();
    // Never closed, the array is still counted and named.
    expect(findStructureRefusal(utf8(`{"requests": [${repeated(10_000, "{}")}`))).toEqual({
      reason: "tooManyStructures",
      structures: 10_003,
      largest: { offset: 13, kind: "array", size: 10_000 },
    });
  });
});

describe("pointerAt", () => {
  it("gives the JSON Pointer of the value at an offset, names unescaped from JSON and escaped as tokens", () => {
    const body = `{"skip": {"x": [1]}, "a/b": {"c~d": [0, "1,2", {"é\\"q": [true]}]}}`;
    expect(pointerAt(utf8(body), Buffer.byteLength(body.slice(0, body.indexOf("[true]"))))).toBe(
      '/a~1b/c~0d/2/é"q',
    );
    expect(pointerAt(utf8(body), body.indexOf("[0,"))).toBe("/a~1b/c~0d");
    expect(pointerAt(utf8(body), body.indexOf("[1]"))).toBe("/skip/x");
    expect(pointerAt(utf8(body), 0)).toBe("");
  });

  it("counts items across strings holding commas and brackets", () => {
    const body = `[",[", {"a": ","}, "]", [[]], {}]`;
    expect(pointerAt(utf8(body), body.indexOf("{}"))).toBe("/4");
    expect(pointerAt(utf8(body), body.indexOf("[[]]"))).toBe("/3");
    expect(pointerAt(utf8(body), body.indexOf("[]]"))).toBe("/3/0");
  });
});
