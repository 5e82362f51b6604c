import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  chainIds,
  getOfficialContracts,
  networkNames,
  type PaymentContracts,
  resolveContracts,
} from "../../src/chain/index.ts";
import { rejection } from "./support/chain-input-rejection.ts";

interface Artifact {
  getAddress(network: string, version?: string): string;
}
const require = createRequire(import.meta.url);
const artifacts = require("@requestnetwork/smart-contracts") as Record<string, Artifact>;

describe("getOfficialContracts", () => {
  it("matches the latest deployments listed by @requestnetwork/smart-contracts on every network", () => {
    for (const network of networkNames) {
      expect(getOfficialContracts(network), network).toEqual({
        chainId: chainIds[network],
        erc20FeeProxy: artifacts.erc20FeeProxyArtifact?.getAddress(network),
        ethereumFeeProxy: artifacts.ethereumFeeProxyArtifact?.getAddress(network),
        batchConversionPayments: artifacts.batchConversionPaymentsArtifact?.getAddress(network),
      });
    }
  });

  it("gives the addresses of the service's contract table", () => {
    expect(getOfficialContracts("base")).toEqual({
      chainId: 8453,
      erc20FeeProxy: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      ethereumFeeProxy: "0xd9C3889eB8DA6ce449bfFE3cd194d08A436e96f2",
      batchConversionPayments: "0x1aF3f22685AcdDc788B3730ed415912d8f654420",
    });
    expect(getOfficialContracts("matic")?.erc20FeeProxy).toBe("0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9");
    expect(getOfficialContracts("sepolia")?.batchConversionPayments).toBe(
      "0x67818703c92580c0e106e401F253E8A410A66f8B",
    );
  });

  it("knows no other network", () => {
    for (const name of ["polygon", "Mainnet", "bsc", "", "__proto__", "constructor"]) {
      expect(getOfficialContracts(name), name).toBeUndefined();
    }
  });
});

describe("resolveContracts", () => {
  const local: PaymentContracts = {
    erc20FeeProxy: "0x00000000000000000000000000000000000e2001",
    ethereumFeeProxy: "0x00000000000000000000000000000000000e2002",
    batchConversionPayments: "0x00000000000000000000000000000000000e2003",
  };

  it("prefers the override, else gives the network's official contracts", () => {
    expect(resolveContracts("base", local)).toBe(local);
    expect(resolveContracts("polygon", local)).toBe(local);
    expect(resolveContracts("base", undefined)).toEqual(getOfficialContracts("base"));
  });

  it("rejects a network without contracts when there is no override", () => {
    expect(rejection(() => resolveContracts("polygon", undefined))).toEqual({
      field: "network",
      code: "unsupported_network",
      message: "network polygon has no payment contracts.",
    });
  });
});
