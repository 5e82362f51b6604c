export interface CachedBundle {
  /** What the bundle put in `module.exports`. */
  readonly exports: unknown;
  /** Whether V8 compiled the bundle from the cache beside it, rather than from its source. */
  cacheAccepted: boolean;
  /** Writes the code of every function compiled so far beside the bundle; a read-only place is left as it is. */
  writeCache(): void;
}
/** Where the code cache of `bundleFile` is kept. */
export declare function codeCacheFile(bundleFile: string): string;
/** Runs a CommonJS bundle, compiled from the code cache beside it when that was made from this very source. */
export declare function loadWithCodeCache(bundleFile: string): CachedBundle;
/** The event a bundled program emits on `process` once it has started: its cache is written then. */
export declare const startedEvent: "payreq:started";
/** Runs the bundle, and writes a fitting cache, when the one beside it did not fit, once the program has started or as it exits. */
export declare function runWithCodeCache(bundleFile: string): unknown;
