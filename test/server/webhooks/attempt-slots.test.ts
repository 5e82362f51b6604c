import { describe, expect, it } from "vitest";
import { AttemptSlots } from "../../../src/server/webhook-delivery/attempt-slots.ts";

const ids = (waiting: { deliveryId: string }[]) => waiting.map((one) => one.deliveryId);

describe("the room for webhook attempts", () => {
  it("starts what waits up to the bounds, the endpoints taking turns, and more as room frees", () => {
    const slots = new AttemptSlots({ total: 4, perEndpoint: 2 });
    for (const n of [1, 2, 3, 4, 5]) slots.wait({ deliveryId: `a${n}`, endpointId: "we_a" });
    slots.wait({ deliveryId: "b1", endpointId: "we_b" });
    slots.wait({ deliveryId: "b2", endpointId: "we_b" });
    slots.wait({ deliveryId: "u1", endpointId: undefined });
    // One from each line in turn, until the total is reached.
    expect(ids(slots.startable())).toEqual(["a1", "b1", "u1", "a2"]);
    expect(slots.room).toBe(0);
    expect(slots.fullEndpoints()).toEqual(["we_a"]);

    // A freed place goes to the next endpoint with room, never past an endpoint's own bound.
    slots.give("we_a");
    expect(ids(slots.startable())).toEqual(["b2"]);
    slots.give("we_b");
    slots.give("we_b");
    // Room for two more in all, but only for one more to we_a.
    expect(ids(slots.startable())).toEqual(["a3"]);
    expect(slots.room).toBe(1);
    expect(slots.hasRoom("we_a")).toBe(false);
    expect(slots.hasRoom("we_b")).toBe(true);
    expect(slots.startable()).toEqual([]);

    // A delivery whose endpoint its claim found counts against that endpoint, if it has room.
    slots.give(undefined);
    expect(slots.takeEndpoint("we_a")).toBe(false);
    expect(slots.takeEndpoint("we_b")).toBe(true);
    expect(slots.wait({ deliveryId: "a4", endpointId: "we_a" })).toBe(false);
    expect(slots.drop("a4")).toBe(true);
    expect(slots.drop("a4")).toBe(false);
    expect(slots.clear()).toBe(1);
    expect(slots.startable()).toEqual([]);
  });
});
