import { randomInt } from "node:crypto";
import type { SchemaValidator } from "../spec/schema-validator.ts";

const alphabets = ["0123456789", "abcdef", "ABCDEF"];

/**
 * Replaces each digit or hex letter after the first two characters with a random one of its kind,
 * keeping every `0x` prefix (an id may hold several addresses).
 */
function scramble(example: string): string {
  return [...example]
    .map((character, index) => {
      if (index < 2 || (character === "0" && example[index + 1] === "x")) return character;
      const alphabet = alphabets.find((letters) => letters.includes(character));
      return alphabet ? alphabet[randomInt(alphabet.length)] : character;
    })
    .join("");
}

/**
 * A well-formed identifier that almost surely names nothing: the example with its digits and hex
 * letters replaced at random, kept only if it still matches the parameter's schema.
 */
export function deriveUnknownId(
  validator: SchemaValidator,
  schema: unknown,
  example: string,
): string | undefined {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = scramble(example);
    if (candidate !== example && validator.errorsFor(schema, candidate).length === 0) return candidate;
  }
  return undefined;
}
