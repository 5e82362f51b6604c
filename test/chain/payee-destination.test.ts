import { describe, expect, it } from "vitest";
import {
  computeDestinationChecksum,
  formatBinaryInteropAddress,
  formatPayeeAddress,
  formatPayeeDestinationId,
  parsePayeeDestinationId,
} from "../../src/chain/index.ts";

const wallet = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const fau = "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C";

describe("payee destinations", () => {
  it("checksum the wallet and chain as ERC-7930 bytes hashed with keccak256, first 4 bytes upper case", () => {
    expect(computeDestinationChecksum(wallet, 11155111)).toBe("E636C26B");
    expect(computeDestinationChecksum(wallet, 8453)).toBe("89CDCBED");
    expect(computeDestinationChecksum(wallet.toLowerCase() as `0x${string}`, 8453)).toBe("89CDCBED");
  });

  it("are written <wallet>@eip155:<chainId>#<checksum>:<token>, addresses checksummed", () => {
    expect(formatPayeeAddress(wallet.toLowerCase() as `0x${string}`, 11155111)).toBe(
      `${wallet}@eip155:11155111#E636C26B`,
    );
    expect(formatPayeeDestinationId({ walletAddress: wallet, chainId: 11155111, tokenAddress: fau })).toBe(
      `${wallet}@eip155:11155111#E636C26B:${fau}`,
    );
  });

  it("are read back, whatever checksum they carry, and refused when malformed", () => {
    expect(
      parsePayeeDestinationId(`${wallet.toLowerCase()}@eip155:11155111#80B12379:${fau.toLowerCase()}`),
    ).toEqual({
      walletAddress: wallet,
      chainId: 11155111,
      tokenAddress: fau,
    });
    for (const bad of [
      `${wallet}@eip155:11155111:${fau}`,
      `${wallet}@solana:1#80B12379:${fau}`,
      `${wallet}#80B12379:${fau}`,
    ]) {
      expect(parsePayeeDestinationId(bad), bad).toBeUndefined();
    }
  });

  it("write the wallet on its chain as an ERC-7930 binary address: version, chain type, chain and address", () => {
    // The example of ERC-7930 itself: an address on Ethereum mainnet.
    expect(formatBinaryInteropAddress("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", 1)).toBe(
      "0x00010000010114d8da6bf26964af9d7eed9e03e53415d37aa96045",
    );
    expect(formatBinaryInteropAddress(wallet, 11155111)).toBe(
      `0x0001000003aa36a714${wallet.slice(2).toLowerCase()}`,
    );
  });
});
