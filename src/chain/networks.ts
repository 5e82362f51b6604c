/** A network name as the service spells it. */
export type NetworkName = "mainnet" | "base" | "optimism" | "arbitrum-one" | "matic" | "sepolia";

/** EIP-155 chain id of each supported network. */
export const chainIds: Readonly<Record<NetworkName, number>> = {
  mainnet: 1,
  base: 8453,
  optimism: 10,
  "arbitrum-one": 42161,
  matic: 137,
  sepolia: 11155111,
};

/** Every supported network, in a stable order. */
export const networkNames: readonly NetworkName[] = Object.freeze(Object.keys(chainIds) as NetworkName[]);

/** Tells whether a string is one of the supported network names (exact spelling). */
export function isNetworkName(value: string): value is NetworkName {
  return (networkNames as readonly string[]).includes(value);
}

/** The supported network of an EIP-155 chain id; undefined for any other chain. */
export function networkOfChainId(chainId: number): NetworkName | undefined {
  return networkNames.find((network) => chainIds[network] === chainId);
}
