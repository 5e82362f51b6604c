import { describe, expect, it } from "vitest";
import { addFormats } from "../../src/spec/ajv-formats.ts";
import { dateTimeFormat } from "../../src/spec/date-time-format.ts";

const ajvDateTime = (addFormats.get("date-time", "full") as { validate: (text: string) => boolean }).validate;
const validate = dateTimeFormat.validate as (text: string) => boolean;

const valid = [
  "2026-04-12T10:00:00Z",
  "2026-04-12t10:00:00z",
  "2026-04-12 10:00:00Z",
  "2026-04-12T10:00:00.123456789+05:30",
  "2026-04-12T10:00:00-00:00",
  "2024-02-29T23:59:59Z",
  "2026-12-31T23:59:60Z",
  "2026-04-12\t10:00:00Z",
  "2026-04-12\n10:00:00Z",
];
const invalid = [
  "2023-02-29T23:59:59Z",
  "2026-04-12T10:00:00",
  "2026-04-12T25:00:00Z",
  "2026-04-12",
  "2026-04-12T",
  "T10:00:00Z",
  "2026-04-12TT10:00:00Z",
  "2026-04-12T10:00:00Z T",
  "2026-04-12T10:00:00ZT10:00:00Z",
  " 2026-04-12T10:00:00Z",
  "",
  " ",
  "  ",
  "t",
];

describe("dateTimeFormat", () => {
  it("accepts and refuses what ajv-formats' full date-time does", () => {
    const verdicts = (texts: string[]) => texts.map((text) => [text, validate(text), ajvDateTime(text)]);
    expect(verdicts(valid)).toEqual(valid.map((text) => [text, true, true]));
    expect(verdicts(invalid)).toEqual(invalid.map((text) => [text, false, false]));
  });

  it("refuses a text of nothing but separators, as ajv-formats' does", () => {
    for (const separator of [" ", "T", "t"]) {
      const text = separator.repeat(100_000);
      expect(validate(text)).toBe(false);
      expect(ajvDateTime(text)).toBe(false);
    }
  });

  it("compares instants as ajv-formats' does", () => {
    expect(dateTimeFormat.compare?.("2026-04-12T10:00:00Z", "2026-04-12T12:00:00+02:00")).toBe(0);
    expect(dateTimeFormat.compare?.("2026-04-12T10:00:01Z", "2026-04-12T10:00:00Z")).toBe(1000);
  });
});
