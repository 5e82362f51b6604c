import {
  type Address,
  bytesToHex,
  concat,
  getAddress,
  type Hex,
  hexToBytes,
  keccak256,
  numberToHex,
  toHex,
} from "viem";

/**
 * A payee destination as the service writes it: `<wallet>@eip155:<chainId>#<checksum>:<token>`, an
 * ERC-7828 address (wallet, chain and checksum) then the token contract.
 */
export interface PayeeDestination {
  walletAddress: Address;
  chainId: number;
  tokenAddress: Address;
}

const destinationPattern = /^(0x[0-9a-fA-F]{40})@eip155:([0-9]{1,20})#([0-9A-Fa-f]{8}):(0x[0-9a-fA-F]{40})$/;

/**
 * The checksum of an ERC-7828 address: the first 4 bytes of keccak256 over its ERC-7930 binary
 * form without the version (chain type 0x0000, chain reference length and bytes, address length and
 * bytes), in upper-case hex.
 */
export function computeDestinationChecksum(walletAddress: Address, chainId: number): string {
  return keccak256(interopBinaryWithoutVersion(walletAddress, chainId)).slice(2, 10).toUpperCase();
}

/** ERC-7930 fields after the version: chain type, chain reference and address, each with its length. */
function interopBinaryWithoutVersion(walletAddress: Address, chainId: number): Hex {
  const chainReference = hexToBytes(numberToHex(chainId));
  return concat([
    "0x0000",
    toHex(chainReference.length, { size: 1 }),
    bytesToHex(chainReference),
    toHex(20, { size: 1 }),
    walletAddress.toLowerCase() as Address,
  ]);
}

/** The wallet on its chain as an ERC-7930 binary interoperable address (version 1), in hex. */
export function formatBinaryInteropAddress(walletAddress: Address, chainId: number): Hex {
  return concat(["0x0001", interopBinaryWithoutVersion(walletAddress, chainId)]);
}

/** The payee's ERC-7828 address: `<wallet>@eip155:<chainId>#<checksum>`. */
export function formatPayeeAddress(walletAddress: Address, chainId: number): string {
  const wallet = getAddress(walletAddress);
  return `${wallet}@eip155:${chainId}#${computeDestinationChecksum(wallet, chainId)}`;
}

/** The whole destination id: the payee's ERC-7828 address, `:` and the token contract. */
export function formatPayeeDestinationId(destination: PayeeDestination): string {
  return `${formatPayeeAddress(destination.walletAddress, destination.chainId)}:${getAddress(destination.tokenAddress)}`;
}

/**
 * Reads a destination id; undefined when it is not of the form. The checksum is read but not
 * checked: the service computes it, and only the service can vouch for the ones it issued.
 */
export function parsePayeeDestinationId(destinationId: string): PayeeDestination | undefined {
  const match = destinationPattern.exec(destinationId);
  if (!match) return undefined;
  const [, wallet, chainId, , token] = match;
  const chain = Number(chainId);
  if (!Number.isSafeInteger(chain)) return undefined;
  return {
    walletAddress: getAddress(wallet as string),
    chainId: chain,
    tokenAddress: getAddress(token as string),
  };
}
