import type { Chain } from "viem";
import { arbitrum, base, mainnet, optimism, polygon, sepolia } from "viem/chains";
import type { NetworkName } from "../chain/index.ts";

/** viem's description of each network the service supports, for the wallet and for labels. */
export const pageChains: Readonly<Record<NetworkName, Chain>> = {
  mainnet,
  base,
  optimism,
  "arbitrum-one": arbitrum,
  matic: polygon,
  sepolia,
};

/** The name wallets show for a network: `base` -> `Base`. */
export function networkLabel(network: NetworkName): string {
  return pageChains[network].name;
}
