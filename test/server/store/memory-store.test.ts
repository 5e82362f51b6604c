import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../../src/server/index.ts";
import { describeStoreConformance } from "./store-conformance.ts";

describeStoreConformance("the in-memory store", async () => createMemoryStore());

describe("the in-memory store", () => {
  it("runs transactions one at a time", async () => {
    const store = createMemoryStore();
    const order: string[] = [];
    const slow = store.withTransaction(async () => {
      order.push("slow start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("slow end");
    });
    const fast = store.withTransaction(async () => {
      order.push("fast");
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(["slow start", "slow end", "fast"]);
  });
});
