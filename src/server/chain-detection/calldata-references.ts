import { bytesToHex, type Hex, hexToBytes, keccak256 } from "viem";

/** Bytes in a payment reference: what the proxies take as their `bytes paymentReference`. */
const referenceLength = 8;

/**
 * The payment reference among a transaction's calldata whose keccak256 is `topic`, the reference
 * a proxy's log indexes (an indexed `bytes` leaves only its hash in the log). The calldata is read
 * for every ABI-encoded 8-byte `bytes` value, at any offset, so that a reference is found
 * whether the payer called the proxy, the batch contract, or a contract wrapping either call.
 */
export function findReferenceOfTopic(calldata: Hex, topic: Hex): Hex | undefined {
  const data = hexToBytes(calldata);
  const wanted = topic.toLowerCase();
  for (let at = 0; at + 64 <= data.length; at++) {
    if (!isLengthWord(data, at) || !isPaddedReference(data, at + 32)) continue;
    const reference = bytesToHex(data.subarray(at + 32, at + 32 + referenceLength));
    if (keccak256(reference) === wanted) return reference;
  }
  return undefined;
}

/** A 32-byte word holding the number 8: the length word of an ABI-encoded 8-byte `bytes`. */
function isLengthWord(data: Uint8Array, at: number): boolean {
  if (data[at + 31] !== referenceLength) return false;
  for (let i = at; i < at + 31; i++) if (data[i] !== 0) return false;
  return true;
}

/** Eight bytes, then zeros to the end of their 32-byte word: the padding ABI encoding adds. */
function isPaddedReference(data: Uint8Array, at: number): boolean {
  for (let i = at + referenceLength; i < at + 32; i++) if (data[i] !== 0) return false;
  return true;
}
