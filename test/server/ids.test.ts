import { describe, expect, it } from "vitest";
import { newRequestId, newSalt, newTxHash, newUlid } from "../../src/server/ids.ts";

describe("ids drawn from the pooled CSPRNG bytes", () => {
  it("are well formed and never repeat, across many refills of the pool", () => {
    const now = new Date("2026-04-12T10:00:00.000Z");
    const requestIds = Array.from({ length: 1_000 }, newRequestId);
    const hashes = Array.from({ length: 200 }, newTxHash);
    const salts = Array.from({ length: 500 }, newSalt);
    const ulids = Array.from({ length: 2_000 }, () => newUlid(now));
    for (const id of requestIds) expect(id).toMatch(/^01[0-9a-f]{64}$/);
    for (const hash of hashes) expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const salt of salts) expect(salt).toMatch(/^[0-9a-f]{16}$/);
    for (const id of ulids) expect(id).toMatch(/^01KP0J4H80[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(new Set(requestIds).size).toBe(requestIds.length);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(new Set(salts).size).toBe(salts.length);
    expect(new Set(ulids).size).toBe(ulids.length);
  });

  it("spread the ULID's random characters over the whole alphabet", () => {
    const now = new Date("2026-04-12T10:00:00.000Z");
    const seen = new Set(Array.from({ length: 500 }, () => newUlid(now).slice(10)).join(""));
    expect(seen.size).toBe(32);
  });
});
