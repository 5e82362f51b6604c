import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Hex } from "viem";

// The creation bytecode @requestnetwork/smart-contracts ships in its typechain factories. The
// factories are CommonJS modules that need ethers@5 once required: their text is read instead,
// so running a local chain needs neither ethers nor the package's other code.
const factories = "@requestnetwork/smart-contracts/types/factories/src/contracts";

const factoryFiles = {
  erc20FeeProxy: "ERC20FeeProxy__factory.js",
  ethereumFeeProxy: "EthereumFeeProxy__factory.js",
  batchConversionPayments: "BatchConversionPayments__factory.js",
  testErc20: "TestERC20.sol/TestERC20__factory.js",
} as const;

export type RequestContractName = keyof typeof factoryFiles;

/** The creation bytecode of one of the package's contracts. */
export function readCreationBytecode(name: RequestContractName): Hex {
  const require = createRequire(import.meta.url);
  let file: string;
  try {
    file = require.resolve(`${factories}/${factoryFiles[name]}`);
  } catch {
    throw new Error(
      "the Request Network contracts are not installed: install @requestnetwork/smart-contracts@0.47.0",
    );
  }
  const bytecode = /_bytecode\s*=\s*"(0x[0-9a-fA-F]+)"/.exec(readFileSync(file, "utf8"))?.[1];
  if (!bytecode) throw new Error(`${factoryFiles[name]} carries no bytecode`);
  return bytecode as Hex;
}
