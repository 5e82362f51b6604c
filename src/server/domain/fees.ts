import type { Address } from "viem";
import { validationFailed } from "../problems.ts";
import type { Principal } from "./principal.ts";

/** A fee taken at payment time: a percentage of each amount, paid to an address. */
export interface FeeSettings {
  feePercentage: string | undefined;
  feeAddress: Address | undefined;
}

/**
 * The fee of a payment: `feePercentage` with `feeAddress` when the call sends them (both or
 * neither, else 400 naming the missing one), otherwise the calling client ID's fee, otherwise none.
 */
export function resolveFee(
  given: { feePercentage?: string | undefined; feeAddress?: string | undefined },
  principal: Principal,
  location: "/query" | "/body",
): FeeSettings {
  const { feePercentage, feeAddress } = given;
  if (feePercentage !== undefined && feeAddress === undefined) {
    throw validationFailed([
      { path: `${location}/feeAddress`, message: "is required together with feePercentage" },
    ]);
  }
  if (feeAddress !== undefined && feePercentage === undefined) {
    throw validationFailed([
      { path: `${location}/feePercentage`, message: "is required together with feeAddress" },
    ]);
  }
  if (feePercentage !== undefined) return { feePercentage, feeAddress: feeAddress as Address };
  if (principal.kind === "clientId" && principal.clientId.feePercentage && principal.clientId.feeAddress) {
    return { feePercentage: principal.clientId.feePercentage, feeAddress: principal.clientId.feeAddress };
  }
  return { feePercentage: undefined, feeAddress: undefined };
}
