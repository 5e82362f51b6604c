import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../../src/server/index.ts";
import { request, requestId } from "./fixtures.ts";
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

  it("lets a read outside a transaction wait for one that is running, never showing its half-written records", async () => {
    const store = createMemoryStore();
    const id = requestId("7");
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const failing = store.withTransaction(async (tx) => {
      await tx.requests.put(request(id));
      wrote();
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("rolled back");
    });
    await written;
    expect(await store.requests.get(id)).toBeUndefined();
    await expect(failing).rejects.toThrow("rolled back");
    await store.requests.put(request(id));
    expect((await store.requests.get(id))?.requestId).toBe(id);
  });

  it("keeps the events past each trim, across many trims and a trim that is undone", async () => {
    const store = createMemoryStore();
    const append = (n: number) =>
      store.appendEvent({ type: "request.created", occurredAt: "t", data: { n } });
    const sequences = async (after?: number) =>
      (await store.listEvents(after)).map((event) => event.sequence);
    for (let n = 1; n <= 8; n++) await append(n);
    await store.setOutboxCursor("webhooks", 8);
    expect(await store.trimEvents(2)).toBe(6);
    expect(await sequences()).toEqual([7, 8]);
    await append(9);
    expect(await sequences()).toEqual([7, 8, 9]);
    expect(await sequences(7)).toEqual([8, 9]);
    await expect(
      store.withTransaction(async (tx) => {
        expect(await tx.trimEvents(1)).toBe(2);
        expect((await tx.listEvents()).map((event) => event.sequence)).toEqual([9]);
        throw new Error("undone");
      }),
    ).rejects.toThrow("undone");
    expect(await sequences()).toEqual([7, 8, 9]);
    for (let n = 10; n <= 40; n++) {
      await append(n);
      await store.setOutboxCursor("webhooks", n);
      await store.trimEvents(3);
      expect(await sequences()).toEqual([n - 2, n - 1, n]);
    }
    expect(store.snapshot().events.map((event) => event.sequence)).toEqual([38, 39, 40]);
    expect(await sequences(38)).toEqual([39, 40]);
    expect((await store.listEvents(0, 2)).map((event) => event.data.n)).toEqual([38, 39]);
  });
});
