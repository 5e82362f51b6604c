import { describe, expect, it } from "vitest";
import {
  keccakUtf8Hex,
  portableKeccakUtf8Hex,
  wasmKeccakReady,
  wasmKeccakUtf8Hex,
} from "../../src/chain/keccak-utf8.ts";

// Keccak-256 as Ethereum uses it (not NIST SHA3-256, whose padding differs).
const vectors: [string, string][] = [
  ["", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"],
  ["abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"],
  ["transfer(address,uint256)", "a9059cbb2ab09eb219583f4a59a5d0623ade346d962bcd4e46b11da047c9049b"],
];

describe("Keccak-256 of UTF-8 text", () => {
  it("gives the known digests in WebAssembly once loaded, and with viem before", async () => {
    await wasmKeccakReady;
    for (const [text, digest] of vectors) {
      expect(wasmKeccakUtf8Hex(text)).toBe(digest);
      expect(portableKeccakUtf8Hex(text)).toBe(digest);
      expect(keccakUtf8Hex(text)).toBe(digest);
    }
  });

  it("agrees between the two for text beyond ASCII and longer than one block", async () => {
    await wasmKeccakReady;
    const texts = ["01äö€0x𝔸", "x".repeat(135), "x".repeat(136), "é".repeat(500)];
    for (const text of texts) expect(wasmKeccakUtf8Hex(text)).toBe(portableKeccakUtf8Hex(text));
  });
});
