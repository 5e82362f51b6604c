/** The repository's root directory. */
export declare const repoRoot: string;
/** Bundles `entry` into `outfile` (two directories below the root); resolves with the files it was built from. */
export declare function bundleForNode(
  entry: string,
  outfile: string,
  options?: { format?: "esm" | "cjs" },
): Promise<string[]>;
/** The path of an up-to-date bundle of `entry`, rebuilt only when a file it was built from changed. */
export declare function freshBundle(
  entry: string,
  outfile: string,
  options?: { format?: "esm" | "cjs" },
): Promise<string>;
