/** The request header that forces a documented answer; browsers may send it too (CORS). */
export const preferHeaderName = "Prefer";

/** The preferences of a `Prefer` header that choose a forced answer, as Prism reads them. */
export interface AnswerPreferences {
  /** The status asked for, as sent (`code=404`). */
  code: string | undefined;
  /** The name of the example asked for (`example=missing-field`). */
  example: string | undefined;
}

/** Splits `text` at `separator`, except inside double quotes. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') quoted = !quoted;
    else if (character === separator && !quoted) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Reads `code` and `example` from a `Prefer` header (RFC 7240): preferences separated by commas,
 * each `name=value` with an optional quoted value and `;` parameters, which are ignored. Names are
 * case-insensitive, the first occurrence of a name wins, and other preferences
 * (`return=minimal`, Prism's `dynamic`) are ignored, as Prism does.
 */
export function readAnswerPreferences(header: string | string[]): AnswerPreferences {
  const found: AnswerPreferences = { code: undefined, example: undefined };
  const text = Array.isArray(header) ? header.join(",") : header;
  for (const preference of splitOutsideQuotes(text, ",")) {
    const [token = ""] = splitOutsideQuotes(preference, ";");
    const equals = token.indexOf("=");
    const name = (equals < 0 ? token : token.slice(0, equals)).trim().toLowerCase();
    let value = equals < 0 ? "" : token.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if ((name === "code" || name === "example") && found[name] === undefined) found[name] = value;
  }
  return found;
}
