import { type Address, type Hex, verifyTypedData } from "viem";
import { readTypedData } from "../../../wire/typed-data.ts";

/**
 * Whether `signature` is `signer`'s EIP-712 signature over the typed data the server issued (as
 * its JSON text). A signature that is not one at all (a bad recovery byte, a point off the curve)
 * is not the signer's either: false, never an error.
 */
export async function isSignedBy(typedDataJson: string, signature: Hex, signer: Address): Promise<boolean> {
  const typedData = readTypedData(typedDataJson);
  try {
    return await verifyTypedData({ ...typedData, address: signer, signature });
  } catch {
    return false;
  }
}
