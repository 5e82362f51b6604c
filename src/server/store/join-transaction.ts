import type { Store, StoreOperations } from "./store.ts";

/**
 * The store as seen from inside the transaction `tx`: every operation is the transaction's, and a
 * `withTransaction` of code called from there joins it instead of starting another. Domain code
 * that calls another operation's domain function inside its own transaction hands it this store,
 * so that the whole request commits or fails as one.
 */
export function joinTransaction(store: Store, tx: StoreOperations): Store {
  return { ...store, ...tx, withTransaction: (work) => work(tx) };
}
