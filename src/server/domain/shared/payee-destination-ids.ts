import { getAddress } from "viem";
import {
  chainIds,
  formatPayeeDestinationId,
  isNetworkName,
  type PayeeDestination,
  parsePayeeDestinationId,
} from "../../../chain/index.ts";

const idFormPattern = /^([a-z0-9-]+):(0x[0-9a-fA-F]{40}):(0x[0-9a-fA-F]{40})$/;

/** Reads `<network>:<walletAddress>:<tokenAddress>`; undefined for another form or an unknown network. */
function parseIdForm(key: string): PayeeDestination | undefined {
  const match = idFormPattern.exec(key);
  if (!match) return undefined;
  const [, network, wallet, token] = match as unknown as [string, string, string, string];
  if (!isNetworkName(network)) return undefined;
  return { walletAddress: getAddress(wallet), chainId: chainIds[network], tokenAddress: getAddress(token) };
}

/**
 * The canonical destination id (the one the store is keyed by) that a path names, in either of
 * its spellings; undefined when it names no destination the service could have issued.
 */
export function canonicalDestinationId(key: string): string | undefined {
  const destination = parsePayeeDestinationId(key) ?? parseIdForm(key);
  if (!destination) return undefined;
  const canonical = formatPayeeDestinationId(destination);
  // A destination id whose checksum is not the service's names no destination it issued.
  return key.includes("@") && canonical.toLowerCase() !== key.toLowerCase() ? undefined : canonical;
}

/** `<network>:<walletAddress>:<tokenAddress>`: the `id` of a destination. */
export function formatDestinationKey(network: string, walletAddress: string, tokenAddress: string): string {
  return `${network}:${getAddress(walletAddress)}:${getAddress(tokenAddress)}`;
}
