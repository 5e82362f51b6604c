import { type Address, zeroAddress } from "viem";
import { isZeroDecimal } from "../../../chain/index.ts";
import { invalidField } from "../../problems.ts";
import { requireBothOrNeither } from "./paired-inputs.ts";
import type { Principal } from "./principal.ts";

/** A fee taken at payment time: a percentage of each amount, paid to an address. */
export interface FeeSettings {
  feePercentage: string | undefined;
  feeAddress: Address | undefined;
}

const noFee: FeeSettings = { feePercentage: undefined, feeAddress: undefined };

/**
 * The fee of a payment: `feePercentage` with `feeAddress` when the call sends them (both or
 * neither, else 400 naming the missing one), otherwise the calling client ID's fee, otherwise none.
 * A fee above 0 to the zero address is refused: the fee proxies would burn it or revert.
 */
export function resolveFee(
  given: { feePercentage?: string | undefined; feeAddress?: string | undefined },
  principal: Principal,
  location: "/query" | "/body",
): FeeSettings {
  const { feePercentage, feeAddress } = given;
  requireBothOrNeither(given, location, ["feePercentage", "feeAddress"]);
  if (feePercentage !== undefined && feeAddress !== undefined) {
    if (feeAddress.toLowerCase() !== zeroAddress) return { feePercentage, feeAddress: feeAddress as Address };
    // A percentage of 0 with the zero address is the explicit way of saying "no fee".
    if (isZeroDecimal(feePercentage)) return noFee;
    throw invalidField(
      `${location}/feeAddress`,
      `must not be the zero address when feePercentage is above 0 (${feePercentage}): the fee would be burnt or the payment would revert`,
    );
  }
  if (principal.kind === "clientId" && principal.clientId.feePercentage && principal.clientId.feeAddress) {
    return { feePercentage: principal.clientId.feePercentage, feeAddress: principal.clientId.feeAddress };
  }
  return noFee;
}
