import { describe, expect, it } from "vitest";
import { createMemoryDeliveryStore, InvalidValueError } from "../../src/index.ts";

function manualClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("createMemoryDeliveryStore", () => {
  it("claims a new delivery, refuses a second claim while in progress, and remembers it once processed", () => {
    const store = createMemoryDeliveryStore();
    expect(store.claim("01KX45HY43KWJRP1XPA7Z3DJ8F")).toBe("claimed");
    expect(store.claim("01KX45HY43KWJRP1XPA7Z3DJ8F")).toBe("in_progress");
    store.markProcessed("01KX45HY43KWJRP1XPA7Z3DJ8F");
    expect(store.claim("01KX45HY43KWJRP1XPA7Z3DJ8F")).toBe("processed");
    expect(store.claim("01KX45J0Q3N1V6ZC2M8T4B7R9D")).toBe("claimed");
    expect(store.size).toBe(1);
  });

  it("lets a released delivery be claimed again, so a retry after a failure is processed", () => {
    const store = createMemoryDeliveryStore();
    expect(store.claim("a")).toBe("claimed");
    store.release("a");
    expect(store.claim("a")).toBe("claimed");
    expect(store.size).toBe(0);
  });

  it("forgets a processed delivery after ttlMs", () => {
    const clock = manualClock();
    const store = createMemoryDeliveryStore({ ttlMs: 60_000, now: clock.now });
    store.claim("a");
    store.markProcessed("a");
    clock.advance(59_999);
    expect(store.claim("a")).toBe("processed");
    clock.advance(1);
    expect(store.claim("a")).toBe("claimed");
    expect(store.size).toBe(0);
  });

  it("keeps at most maxEntries processed deliveries, forgetting the oldest first", () => {
    const store = createMemoryDeliveryStore({ maxEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) {
      store.claim(id);
      store.markProcessed(id);
    }
    expect(store.size).toBe(3);
    expect(store.claim("b")).toBe("processed");
    expect(store.claim("d")).toBe("processed");
    expect(store.claim("a")).toBe("claimed");
  });

  it("does not evict deliveries in progress to make room", () => {
    const store = createMemoryDeliveryStore({ maxEntries: 1 });
    store.claim("running");
    store.claim("a");
    store.markProcessed("a");
    store.claim("b");
    store.markProcessed("b");
    expect(store.claim("running")).toBe("in_progress");
    expect(store.claim("a")).toBe("claimed");
  });

  it.each([
    [{ maxEntries: 0 }, "Invalid maxEntries: expected a positive integer, got 0."],
    [{ ttlMs: 1.5 }, "Invalid ttlMs: expected a positive integer, got 1.5."],
  ])("refuses %o", (options, message) => {
    expect(() => createMemoryDeliveryStore(options)).toThrow(InvalidValueError);
    expect(() => createMemoryDeliveryStore(options)).toThrow(message);
  });
});
