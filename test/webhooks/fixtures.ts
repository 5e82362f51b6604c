import { isObject, loadBundledSpec, specExample } from "../../src/spec/spec-document.ts";

export const spec = loadBundledSpec();

/** A webhook payload example of the spec, such as `WebhookPaymentConfirmed`: an object, copied. */
export function payloadExample(name: string): Record<string, unknown> {
  const value = specExample(name);
  if (!isObject(value)) throw new Error(`the spec example ${name} is not a JSON object`);
  return value;
}

export const secret = "whsec_test_5f3c9a1e7b2d4068";

/** GitHub's published known answer, which holds for this scheme too. */
export const knownAnswer = {
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
} as const;
