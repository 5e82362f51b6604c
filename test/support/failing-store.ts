import type { Store, StoreOperations } from "../../src/server/store/store.ts";

/** The error the wrapped store throws where a failure is forced. */
export class ForcedStoreFailure extends Error {
  override name = "ForcedStoreFailure";
}

// Store methods that change what is stored; every other method only reads.
const writePrefixes = ["put", "append", "delete", "set", "trim", "claim", "update"];
const isWrite = (name: string) => writePrefixes.some((prefix) => name.startsWith(prefix));
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

  const wrapOperations = <T extends object>(operations: T): T =>
    new Proxy(operations, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== "function" || typeof property !== "string" || property === "withTransaction") {
          return value;
        }
        return async (...args: unknown[]) => {
          beforeCall(property);
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          afterCall(property);
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
  const standalone = Object.fromEntries(
    Object.entries(store)
      .filter(([name, value]) => typeof value === "function" && !storeControls.has(name))
      .map(([name, value]) => [
        name,
        async (...args: unknown[]) => {
          if (!(await operationNames()).has(name)) return (value as (...a: unknown[]) => unknown)(...args);
          return wrapped.withTransaction((tx) =>
            (tx[name as keyof StoreOperations] as (...a: unknown[]) => Promise<unknown>)(...args),
          );
        },
      ]),
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
