import type { Address } from "viem";
import { ChainInputError } from "./errors.ts";
import { chainIds, isNetworkName, type NetworkName } from "./networks.ts";

/** The Request Network payment contracts deployed on one network. */
export interface OfficialContracts {
  chainId: number;
  erc20FeeProxy: Address;
  ethereumFeeProxy: Address;
  batchConversionPayments: Address;
}

/** The contracts a payment is sent through; builders accept an override for local deployments. */
export type PaymentContracts = Pick<
  OfficialContracts,
  "erc20FeeProxy" | "ethereumFeeProxy" | "batchConversionPayments"
>;

// The latest deployments listed by @requestnetwork/smart-contracts 0.47.0
// (dist/src/lib/artifacts/{ERC20FeeProxy,EthereumFeeProxy,BatchConversionPayments}/index.js).
const deployments: Readonly<Record<NetworkName, PaymentContracts>> = {
  mainnet: {
    erc20FeeProxy: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
    ethereumFeeProxy: "0xfCFBcfc4f5A421089e3Df45455F7f4985FE2D6a8",
    batchConversionPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
  },
  base: {
    erc20FeeProxy: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
    ethereumFeeProxy: "0xd9C3889eB8DA6ce449bfFE3cd194d08A436e96f2",
    batchConversionPayments: "0x1aF3f22685AcdDc788B3730ed415912d8f654420",
  },
  optimism: {
    erc20FeeProxy: "0x399F5EE127ce7432E4921a61b8CF52b0af52cbfE",
    ethereumFeeProxy: "0xe11BF2fDA23bF0A98365e1A4c04A87C9339e8687",
    batchConversionPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
  },
  "arbitrum-one": {
    erc20FeeProxy: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9",
    ethereumFeeProxy: "0xfCFBcfc4f5A421089e3Df45455F7f4985FE2D6a8",
    batchConversionPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
  },
  matic: {
    erc20FeeProxy: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9",
    ethereumFeeProxy: "0xfCFBcfc4f5A421089e3Df45455F7f4985FE2D6a8",
    batchConversionPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
  },
  sepolia: {
    erc20FeeProxy: "0x399F5EE127ce7432E4921a61b8CF52b0af52cbfE",
    ethereumFeeProxy: "0xe11BF2fDA23bF0A98365e1A4c04A87C9339e8687",
    batchConversionPayments: "0x67818703c92580c0e106e401F253E8A410A66f8B",
  },
};

/** The official payment contracts of a network, or undefined for a network we do not support. */
export function getOfficialContracts(network: string): OfficialContracts | undefined {
  if (!isNetworkName(network)) return undefined;
  return { chainId: chainIds[network], ...deployments[network] };
}

/**
 * The contracts to pay through on a network: the override, else the official deployment.
 * Takes a plain string because the server's stored records name their network as one.
 */
export function resolveContracts(network: string, override: PaymentContracts | undefined): PaymentContracts {
  const contracts = override ?? getOfficialContracts(network);
  if (!contracts) {
    throw new ChainInputError(
      "network",
      "unsupported_network",
      `network ${network} has no payment contracts.`,
    );
  }
  return contracts;
}
