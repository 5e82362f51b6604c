import type { Store } from "../../src/server/store/store.ts";

type Operation = (...args: unknown[]) => Promise<unknown>;
// What a store has beside its operations: these run as the store runs them.
const storeControls = new Set(["onEventsCommitted", "close", "snapshot"]);

/**
 * A store whose every call, a table's (`store.requests.get`) or its own (`withTransaction`,
 * `claimWebhookDeliveries`, ...), reaches the wrapped store only after `delayMs`, while `slow()`
 * says so: the store of a process whose database answers late, as under load. The calls inside a
 * transaction run as they come.
 */
export function createSlowStore(store: Store, delayMs: number, slow: () => boolean = () => true): Store {
  const later =
    (operation: Operation, target: object): Operation =>
    async (...args) => {
      if (slow()) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return operation.apply(target, args);
    };
  const wrap = <T extends object>(operations: T): T =>
    new Proxy(operations, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof property !== "string" || storeControls.has(property)) return value;
        if (typeof value === "function") return later(value as Operation, target);
        if (typeof value === "object" && value !== null) return wrap(value);
        return value;
      },
    });
  return wrap(store);
}
