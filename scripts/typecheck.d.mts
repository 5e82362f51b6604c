/** What `npm run typecheck` gives tsc, run from the repository root, besides the options it is passed. */
export declare const typecheckArguments: readonly string[];
