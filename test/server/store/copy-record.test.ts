import { describe, expect, it } from "vitest";
import { copyRecord } from "../../../src/server/store/copy-record.ts";
import { request, requestId } from "./fixtures.ts";

describe("copyRecord", () => {
  it("copies records as structuredClone does, sharing nothing with the original", () => {
    const record = {
      ...request(requestId("3")),
      payments: [{ amount: "1", steps: [{ at: "t", fee: null }] }],
      nothing: undefined,
      big: 12n,
    };
    const copied = copyRecord(record);
    expect(copied).toStrictEqual(structuredClone(record));
    expect(Object.keys(copied)).toEqual(Object.keys(record));
    copied.payments[0]?.steps.push({ at: "u", fee: null });
    (copied as { status: string }).status = "paid";
    expect(record.payments[0]?.steps).toHaveLength(1);
    expect(record.status).toBe("pending");
  });

  it("keeps a member named __proto__ as a member, never as the copy's prototype", () => {
    const parsed = JSON.parse('{"metadata":{"__proto__":{"admin":true},"plain":1}}');
    const copied = copyRecord(parsed);
    expect(Object.getPrototypeOf(copied.metadata)).toBe(Object.prototype);
    expect(copied.metadata.admin).toBeUndefined();
    expect(Object.keys(copied.metadata)).toEqual(["__proto__", "plain"]);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(parsed));
  });

  it("copies an object without a prototype into a plain one, as structuredClone does", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, nested: { b: [2] } });
    const copied = copyRecord({ bare });
    expect(Object.getPrototypeOf(copied.bare)).toBe(Object.prototype);
    expect(copied).toStrictEqual(structuredClone({ bare }));
    expect(copied.bare.nested).not.toBe(bare.nested);
  });

  it("refuses a function anywhere in a record, as structuredClone does", () => {
    expect(() => copyRecord({ nested: { list: [{ run: () => 1 }] } })).toThrow();
  });

  it("hands other objects to structuredClone: a Date is copied, a function refused", () => {
    const at = new Date("2026-04-12T10:00:00.000Z");
    const copied = copyRecord({ at, list: [at] });
    expect(copied.at).toBeInstanceOf(Date);
    expect(copied.at).not.toBe(at);
    expect(copied.list[0]?.getTime()).toBe(at.getTime());
    expect(() => copyRecord({ run: () => 1 })).toThrow();
  });
});
