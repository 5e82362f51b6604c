import { escapePointerToken } from "../../spec/spec-document.ts";

/** No operation's body nests deeper than a few levels; deeper bodies would only exhaust the stack. */
export const maxBodyDepth = 64;

/**
 * The objects, arrays and object members a body may hold, counted at every depth. The largest
 * valid body of any operation holds about 800 (the intents of 100 payouts of a multicall link;
 * test/spec/body-structures.test.ts), so unknown members a server without `strictBodies` drops
 * still have ten times that room. Parsing costs little per string or
 * number but much per object and member (V8 builds a shape for each new set of names): a body
 * of 1 MiB of them took 100–150 ms to parse before anything could refuse it.
 */
export const maxBodyStructures = 10_000;

/** The array or object with the most items or members. */
export interface LargestContainer {
  /** Offset of its opening bracket in the scanned bytes. */
  offset: number;
  kind: "array" | "object";
  /** Its items or members. */
  size: number;
}

export type StructureRefusal =
  | { reason: "tooDeep" }
  | { reason: "tooManyStructures"; structures: number; largest: LargestContainer };

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const colon = 0x3a;
const comma = 0x2c;
const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The offset of the quote that ends the string opened at `start`, or the end of `bytes`. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let index = start + 1;
  for (; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === backslash) index++;
    else if (byte === quote) break;
  }
  return index;
}

// Per open container, by depth (1 is the outermost): where it opened, its commas, and whether
// anything has been seen in it (an empty container has no items, not one). Made once: the scan
// runs on every body, synchronously, and four new typed arrays cost more than a short body's scan.
const openedAt = new Uint32Array(maxBodyDepth + 1);
const commas = new Uint32Array(maxBodyDepth + 1);
const hasContent = new Uint8Array(maxBodyDepth + 1);
const isObject = new Uint8Array(maxBodyDepth + 1);

/**
 * Why `bytes`, JSON in UTF-8, is refused by its shape alone: nested deeper than `maxBodyDepth`,
 * or holding more than `maxBodyStructures` objects, arrays and members. One pass over the bytes,
 * before any of it is parsed: in UTF-8 no byte of a multi-byte character is below 0x80, so each
 * bracket, colon, comma and quote found is one of JSON's. Malformed JSON is scanned as far as it
 * goes and left for the parser to name.
 */
export function findStructureRefusal(bytes: Uint8Array): StructureRefusal | undefined {
  // Each level's slots are set as its container opens; only the level outside any is reset here.
  commas[0] = 0;
  hasContent[0] = 0;
  let depth = 0;
  let structures = 0;
  // The largest container closed so far: its depth's slot when it closed, kept as numbers.
  let largestSize = -1;
  let largestOffset = 0;
  let largestIsObject = 0;
  const close = () => {
    const size = (commas[depth] ?? 0) + (hasContent[depth] ?? 0);
    if (size > largestSize) {
      largestSize = size;
      largestOffset = openedAt[depth] ?? 0;
      largestIsObject = isObject[depth] ?? 0;
    }
    depth--;
  };
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] ?? 0;
    if (byte === quote) {
      hasContent[depth] = 1;
      index = stringEnd(bytes, index);
    } else if (byte === openBrace || byte === openBracket) {
      hasContent[depth] = 1;
      if (++depth > maxBodyDepth) return { reason: "tooDeep" };
      structures++;
      openedAt[depth] = index;
      commas[depth] = 0;
      hasContent[depth] = 0;
      isObject[depth] = byte === openBrace ? 1 : 0;
    } else if (byte === closeBrace || byte === closeBracket) {
      if (depth > 0) close();
    } else if (byte === colon) structures++;
    else if (byte === comma) commas[depth] = (commas[depth] ?? 0) + 1;
    else if (!isWhitespace(byte)) hasContent[depth] = 1;
  }
  while (depth > 0) close();
  if (structures <= maxBodyStructures || largestSize < 0) return undefined;
  const largest: LargestContainer = {
    offset: largestOffset,
    kind: largestIsObject ? "object" : "array",
    size: largestSize,
  };
  return { reason: "tooManyStructures", structures, largest };
}

/** The member name that starts with the quote at `start` and ends at `end`, as written if malformed. */
function memberName(bytes: Uint8Array, start: number, end: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end + 1 - start).toString("utf8");
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1);
  }
}

/**
 * The JSON Pointer of the value that starts at `offset` in `bytes`, JSON in UTF-8: a second pass
 * that keeps each open container's current index or member name, made only for a body that is
 * refused.
 */
export function pointerAt(bytes: Uint8Array, offset: number): string {
  const tokens: (string | number)[] = [];
  const inObject: boolean[] = [];
  const expectingName: boolean[] = [];
  for (let index = 0; index < offset && index < bytes.length; index++) {
    const byte = bytes[index];
    const depth = tokens.length;
    if (byte === quote) {
      const start = index;
      index = stringEnd(bytes, index);
      if (depth > 0 && inObject[depth - 1] && expectingName[depth - 1]) {
        tokens[depth - 1] = memberName(bytes, start, index);
        expectingName[depth - 1] = false;
      }
    } else if (byte === openBrace || byte === openBracket) {
      const object = byte === openBrace;
      tokens.push(object ? "" : 0);
      inObject.push(object);
      expectingName.push(object);
    } else if (byte === closeBrace || byte === closeBracket) {
      tokens.pop();
      inObject.pop();
      expectingName.pop();
    } else if (byte === comma && depth > 0) {
      if (inObject[depth - 1]) expectingName[depth - 1] = true;
      else tokens[depth - 1] = (tokens[depth - 1] as number) + 1;
    }
  }
  return tokens.map((token) => `/${typeof token === "number" ? token : escapePointerToken(token)}`).join("");
}
