import type { Store, StoreOperations } from "../../src/server/store/store.ts";

/** The error the wrapped store throws where a failure is forced. */
export class ForcedStoreFailure extends Error {
  override name = "ForcedStoreFailure";
}

// Store methods that change what is stored (a table's `put` and `delete` among them); every other
// method only reads. A table's methods are named after it: `requests.put`.
const writePrefixes = ["put", "append", "delete", "set", "trim", "claim", "update"];
const isWrite = (name: string) => {
  const method = name.slice(name.indexOf(".") + 1);
  return writePrefixes.some((prefix) => method.startsWith(prefix));
};
type Operation = (...args: unknown[]) => Promise<unknown>;
/** A store's tables: the members that are objects of operations rather than operations. */
const isTable = (value: unknown): value is Record<string, Operation> =>
  typeof value === "object" && value !== null;
// What a store has beside its operations.
const storeControls = new Set(["withTransaction", "onEventsCommitted", "close", "snapshot"]);

/**
 * A store that can be told to fail once, after the first write it sees: at the `failAt`-th store
 * call after that write (1 for the very next call), or, with `failAt` 0, when the transaction
 * holding that write is about to commit. With no failure armed it counts the calls that follow the
 * first write, so that a test can force a failure at each of them in turn.
 */
export function createFailingStore(store: Store) {
  let failAt: number | undefined;
  let firstWriteSeen = false;
  let callsAfterFirstWrite = 0;
  let failed = false;

  const beforeCall = (name: string) => {
    if (firstWriteSeen) {
      callsAfterFirstWrite += 1;
      if (!failed && failAt === callsAfterFirstWrite) {
        failed = true;
        throw new ForcedStoreFailure(`forced failure at store call ${name}`);
      }
    }
  };
  const afterCall = (name: string) => {
    if (isWrite(name)) firstWriteSeen = true;
  };

  const wrapOperations = <T extends object>(operations: T, prefix = ""): T =>
    new Proxy(operations, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof property !== "string" || property === "withTransaction") return value;
        if (isTable(value)) return wrapOperations(value, `${property}.`);
        if (typeof value !== "function") return value;
        const name = `${prefix}${property}`;
        return async (...args: unknown[]) => {
          beforeCall(name);
          const result = await (value as Operation).apply(target, args);
          afterCall(name);
          return result;
        };
      },
    });

  // A call outside a transaction is a transaction of its own, and fails where one would; what only
  // the store has (claiming deliveries, for one) runs as the store runs it.
  let transactionOperations: Promise<Set<string>> | undefined;
  const operationNames = () => {
    transactionOperations ??= store.withTransaction(async (tx) => new Set(Object.keys(tx)));
    return transactionOperations;
  };
  const inTransaction =
    (name: string, pick: (tx: StoreOperations) => Operation, own: Operation): Operation =>
    async (...args) => {
      if (!(await operationNames()).has(name)) return own(...args);
      return wrapped.withTransaction((tx) => pick(tx)(...args));
    };
  const standalone = Object.fromEntries(
    Object.entries(store)
      .filter(([name, value]) => (typeof value === "function" || isTable(value)) && !storeControls.has(name))
      .map(([name, value]) => {
        const operation = (tx: StoreOperations) => tx[name as keyof StoreOperations] as unknown;
        if (!isTable(value))
          return [name, inTransaction(name, (tx) => operation(tx) as Operation, value as Operation)];
        const methods = Object.entries(value).map(([method, own]) => [
          method,
          inTransaction(name, (tx) => (operation(tx) as Record<string, Operation>)[method] as Operation, own),
        ]);
        return [name, Object.fromEntries(methods)];
      }),
  );
  const wrapped: Store = {
    ...store,
    ...standalone,
    withTransaction: <T>(work: (tx: StoreOperations) => Promise<T>) =>
      store.withTransaction(async (tx) => {
        const writesBefore = firstWriteSeen;
        const result = await work(wrapOperations(tx));
        if (!writesBefore && firstWriteSeen && !failed && failAt === 0) {
          failed = true;
          throw new ForcedStoreFailure("forced failure before the commit of the first write");
        }
        return result;
      }),
  };

  return {
    store: wrapped,
    /** Forget what was seen; fail at `at` (see above) from now on, or only count with undefined. */
    arm(at: number | undefined) {
      failAt = at;
      firstWriteSeen = false;
      callsAfterFirstWrite = 0;
      failed = false;
    },
    /** Whether a write was seen since `arm`, how many calls followed it, and whether it failed. */
    seen: () => ({ wrote: firstWriteSeen, callsAfterFirstWrite, failed }),
  };
}
