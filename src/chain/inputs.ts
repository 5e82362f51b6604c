import { type Address, getAddress, isAddress, zeroAddress } from "viem";
import { ChainInputError } from "./errors.ts";
import type { NetworkName } from "./networks.ts";
import type { PaymentReference } from "./payment-reference.ts";
import type { TokenRecord } from "./tokens.ts";

/** The checksummed form of an address given in any letter case; rejects anything else. */
export function normalizeAddress(value: string, field: string): Address {
  return getAddress(encodedAddress(value, field));
}

/**
 * The lower-case form of an address, for calldata: ABI encoding writes every address in lower
 * case, and viem's encoder checks a mixed-case one against its checksum, a keccak hash that a
 * batch of distinct payees would pay once per payee, where a lower-case one passes by its pattern.
 */
export function encodedAddress(value: string, field: string): Address {
  if (!isAddress(value, { strict: false })) {
    throw new ChainInputError(field, "invalid_address", `${field} must be 0x and 40 hex digits.`);
  }
  return value.toLowerCase() as Address;
}

/** The lower-case form of a payment reference, `0x` and 16 hex digits. */
export function normalizePaymentReference(value: string, field: string): PaymentReference {
  if (!/^0x[0-9a-fA-F]{16}$/.test(value)) {
    throw new ChainInputError(field, "invalid_format", `${field} must be 0x and 16 hex digits.`);
  }
  return value.toLowerCase() as PaymentReference;
}

/** Rejects an amount of base units that is zero or negative. */
export function requirePositive(value: bigint, field: string): bigint {
  if (value <= 0n) throw new ChainInputError(field, "out_of_range", `${field} must be greater than 0.`);
  return value;
}

/** Rejects a negative fee amount. */
export function requireNonNegative(value: bigint, field: string): bigint {
  if (value < 0n) throw new ChainInputError(field, "out_of_range", `${field} must not be negative.`);
  return value;
}

/** Rejects a token that lives on another network than the payment. */
export function requireSameNetwork(token: TokenRecord, network: NetworkName, field: string): void {
  if (token.network !== network) {
    throw new ChainInputError(
      field,
      "network_mismatch",
      `${field} ${token.id} is on ${token.network}, not on ${network}.`,
    );
  }
}

/**
 * The fee recipient to encode: the zero address when there is no fee. A fee without an address
 * is rejected, because the proxies would skip (ERC-20) or burn (native) it.
 */
export function resolveFeeAddress(feeAddress: string | undefined, feeAmount: bigint, field: string): Address {
  if (feeAddress === undefined) {
    if (feeAmount > 0n) {
      throw new ChainInputError(
        field,
        "missing_fee_address",
        `${field} is required when the fee is above 0.`,
      );
    }
    return zeroAddress;
  }
  return encodedAddress(feeAddress, field);
}
