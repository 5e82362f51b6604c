import type { NetworkName } from "../chain/index.ts";

const labels: Readonly<Record<NetworkName, string>> = {
  mainnet: "Ethereum",
  base: "Base",
  optimism: "OP Mainnet",
  "arbitrum-one": "Arbitrum One",
  matic: "Polygon",
  sepolia: "Sepolia",
};

/** The name wallets show for a network: `base` -> `Base`. */
export function networkLabel(network: NetworkName): string {
  return labels[network];
}
