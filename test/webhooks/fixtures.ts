import { getAtPointer, loadBundledSpec } from "../support/spec-document.ts";

export const spec = loadBundledSpec();

/** A named example of the bundled spec, copied. */
export function specExample(name: string): Record<string, unknown> {
  const value = getAtPointer(spec, `/components/examples/${name}/value`);
  if (value === undefined) throw new Error(`the spec has no example named ${name}`);
  return structuredClone(value) as Record<string, unknown>;
}

export const secret = "whsec_test_5f3c9a1e7b2d4068";

/** GitHub's published known answer, which holds for this scheme too. */
export const knownAnswer = {
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
} as const;
