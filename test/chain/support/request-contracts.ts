import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

/** ABI and creation bytecode of a contract, as @requestnetwork/smart-contracts ships it. */
export interface ContractArtifact {
  abi: Abi;
  bytecode: Hex;
}

// The package's typechain factories are CommonJS and need ethers@5; we read only their static
// `abi` and `bytecode`.
const require = createRequire(import.meta.url);
const factories = "@requestnetwork/smart-contracts/types/factories/src/contracts";

function loadFactory(modulePath: string, exportName: string): ContractArtifact {
  const factory = (require(`${factories}/${modulePath}`) as Record<string, ContractArtifact>)[exportName];
  if (!factory?.bytecode) throw new Error(`${exportName} has no bytecode in ${modulePath}`);
  return { abi: factory.abi, bytecode: factory.bytecode };
}

/** An OpenZeppelin ERC-20 with 18 decimals whose constructor mints `initialSupply` to the deployer. */
export const testErc20 = loadFactory("TestERC20.sol/TestERC20__factory.js", "TestERC20__factory");
/** ERC20FeeProxy: `transferFromWithReferenceAndFee`. */
export const erc20FeeProxy = loadFactory("ERC20FeeProxy__factory.js", "ERC20FeeProxy__factory");
/** EthereumFeeProxy: `transferWithReferenceAndFee`. */
export const ethereumFeeProxy = loadFactory("EthereumFeeProxy__factory.js", "EthereumFeeProxy__factory");
/** BatchConversionPayments: `batchPayments` and its admin setters. */
export const batchConversionPayments = loadFactory(
  "BatchConversionPayments__factory.js",
  "BatchConversionPayments__factory",
);
