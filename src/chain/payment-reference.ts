import { bytesToHex } from "viem";
import { keccakUtf8Hex } from "./keccak-utf8.ts";

/** A payment reference as the API and the contracts carry it: `0x` and 16 lower-case hex digits. */
export type PaymentReference = `0x${string}`;

/**
 * The payment reference of a request: the last 8 bytes of
 * keccak256(utf8(lowercase(requestId + salt + paymentAddress))), with a `0x` prefix. Every
 * request created computes one, a batch of 100 payees a hundred: keccakUtf8Hex hashes them in
 * WebAssembly once that has loaded.
 */
export function computePaymentReference(input: {
  requestId: string;
  salt: string;
  paymentAddress: string;
}): PaymentReference {
  const preimage = `${input.requestId}${input.salt}${input.paymentAddress}`.toLowerCase();
  return `0x${keccakUtf8Hex(preimage).slice(-16)}`;
}

/** A fresh salt for a payment reference: 8 random bytes as 16 lower-case hex digits. */
export function generateSalt(): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(8))).slice(2);
}
