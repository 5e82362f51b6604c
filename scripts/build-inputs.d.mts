/**
 * The hash of every build input's path and bytes under `root`, and of the Node.js version and
 * platform: what `npm run build:lib` compares to skip a build whose inputs are unchanged.
 */
export function hashBuildInputs(root: string): string;
