/**
 * The event a long-running command emits on `process` once it has started. A bundle run from
 * V8's code cache writes a missing cache then (code-cache.mjs, whose `startedEvent` this
 * equals), while the bytecode of the start is all there; elsewhere no one listens.
 */
export const startedEvent = "payreq:started";

export function reportStarted(): void {
  // Node's typings list only its own process events.
  (process as NodeJS.EventEmitter).emit(startedEvent);
}
