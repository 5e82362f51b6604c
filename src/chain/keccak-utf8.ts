import { createKeccak, type IHasher } from "hash-wasm";
import { keccak256, stringToBytes } from "viem";

let wasmHasher: IHasher | undefined;

/**
 * Resolves once Keccak-256 runs in WebAssembly: a few milliseconds after the module loads. From
 * its first call it costs a microsecond or two, where JavaScript's takes some 150 µs until the
 * engine has compiled it: a server's first batch of 100 payees hashes a hundred preimages.
 */
export const wasmKeccakReady: Promise<void> = createKeccak(256).then((hasher) => {
  wasmHasher = hasher;
});

/** Keccak-256 of the text's UTF-8 bytes in WebAssembly, as 64 lower-case hex digits; undefined until loaded. */
export function wasmKeccakUtf8Hex(text: string): string | undefined {
  return wasmHasher?.init().update(text).digest("hex");
}

/** The same hash with viem, for a caller that comes before the WebAssembly module has loaded. */
export function portableKeccakUtf8Hex(text: string): string {
  return keccak256(stringToBytes(text)).slice(2);
}

/** Keccak-256 of the text's UTF-8 bytes, as 64 lower-case hex digits. */
export function keccakUtf8Hex(text: string): string {
  return wasmKeccakUtf8Hex(text) ?? portableKeccakUtf8Hex(text);
}
