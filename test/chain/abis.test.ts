import { createRequire } from "node:module";
import { type Abi, toFunctionSelector } from "viem";
import { describe, expect, it } from "vitest";
import {
  batchConversionPaymentsAbi,
  erc20ApproveAbi,
  erc20FeeProxyAbi,
  ethereumFeeProxyAbi,
} from "../../src/chain/index.ts";
import { testErc20 } from "./support/request-contracts.ts";

const require = createRequire(import.meta.url);
const artifactsDir = "@requestnetwork/smart-contracts/dist/src/lib/artifacts";

function packageAbi(contract: string): Abi {
  return (require(`${artifactsDir}/${contract}/0.1.0.json`) as { abi: Abi }).abi;
}

/** The package's entries with the names of ours, in our order, without legacy solc-0.5 keys. */
function matchingEntries(ours: Abi, theirs: Abi): unknown[] {
  return ours.map((entry) => {
    const name = "name" in entry ? entry.name : undefined;
    const found = theirs.find(
      (candidate) => "name" in candidate && candidate.name === name && candidate.type === entry.type,
    );
    if (!found) return undefined;
    const { constant: _constant, payable: _payable, ...rest } = found as Record<string, unknown>;
    return rest;
  });
}

describe("ABI fragments", () => {
  it("are copied unchanged from @requestnetwork/smart-contracts", () => {
    expect(erc20FeeProxyAbi).toEqual(matchingEntries(erc20FeeProxyAbi, packageAbi("ERC20FeeProxy")));
    expect(ethereumFeeProxyAbi).toEqual(matchingEntries(ethereumFeeProxyAbi, packageAbi("EthereumFeeProxy")));
    expect(batchConversionPaymentsAbi).toEqual(
      matchingEntries(batchConversionPaymentsAbi, packageAbi("BatchConversionPayments")),
    );
    expect(erc20ApproveAbi).toEqual(matchingEntries(erc20ApproveAbi, testErc20.abi));
  });

  it("have the selectors the service's calldata uses", () => {
    expect(toFunctionSelector(erc20ApproveAbi[0])).toBe("0x095ea7b3");
    expect(toFunctionSelector(erc20FeeProxyAbi[0])).toBe("0xc219a14d");
    expect(toFunctionSelector(ethereumFeeProxyAbi[0])).toBe("0xb868980b");
    expect(toFunctionSelector(batchConversionPaymentsAbi[0])).toBe("0x92cddb91");
  });
});
