import { type Address, encodeDeployData, zeroAddress } from "viem";
import {
  findToken,
  getOfficialContracts,
  type OfficialContracts,
  type PaymentContracts,
  type TokenRecord,
} from "../../../../src/chain/index.ts";
import { erc20Allowance, erc20BalanceOf } from "../../../chain/support/erc20-reads.ts";
import {
  batchConversionPayments,
  erc20FeeProxy,
  ethereumFeeProxy,
  testErc20,
} from "../../../chain/support/request-contracts.ts";
import type { TestAccount } from "../../../chain/support/test-chain.ts";
import { TestChain } from "../../../chain/support/test-chain.ts";

/**
 * A Sepolia EVM where FAU, an 18-decimal test ERC-20, sits at its address in the server's token
 * table, and the three payment contracts at their official Sepolia addresses (so that the server
 * runs with its default configuration) or at the addresses given (for its `contracts` override).
 */
export interface SepoliaDeployment {
  chain: TestChain;
  /** Holds `payerFau` FAU and `payerWei` wei. */
  payer: TestAccount;
  contracts: PaymentContracts;
  fau: TokenRecord;
  eth: TokenRecord;
  fauBalanceOf(account: Address): Promise<bigint>;
  fauAllowance(holder: Address, spender: Address): Promise<bigint>;
}

const ether = 10n ** 18n;
export const payerFau = 1_000n * ether;
export const payerWei = 100n * ether;

/** Deploys the package's bytecode at those addresses; the payer owns all the FAU. */
export async function deploySepoliaContracts(
  contracts: PaymentContracts = getOfficialContracts("sepolia") as OfficialContracts,
): Promise<SepoliaDeployment> {
  const chain = await TestChain.create();
  const owner = await chain.createAccount(1, ether);
  const payer = await chain.createAccount(2, payerWei);
  const fau = findToken("FAU-sepolia") as TokenRecord;
  const eth = findToken("ETH-sepolia-sepolia") as TokenRecord;

  await chain.constructAt(owner, contracts.erc20FeeProxy, erc20FeeProxy.bytecode);
  await chain.constructAt(owner, contracts.ethereumFeeProxy, ethereumFeeProxy.bytecode);
  // No conversion proxies and no price feeds: batches pay without conversion, and the batch fee
  // stays at the constructor's 0, the value of the official deployments the server assumes.
  const batchArgs = [
    contracts.erc20FeeProxy,
    contracts.ethereumFeeProxy,
    zeroAddress,
    zeroAddress,
    zeroAddress,
    owner.address,
  ] as const;
  await chain.constructAt(
    owner,
    contracts.batchConversionPayments,
    encodeDeployData({
      abi: batchConversionPayments.abi,
      bytecode: batchConversionPayments.bytecode,
      args: batchArgs,
    }),
  );
  // TestERC20's constructor mints the whole supply to its deployer: the payer.
  await chain.constructAt(
    payer,
    fau.address,
    encodeDeployData({ abi: testErc20.abi, bytecode: testErc20.bytecode, args: [payerFau] }),
  );

  return {
    chain,
    payer,
    contracts,
    fau,
    eth,
    fauBalanceOf: (account) => erc20BalanceOf(chain, fau.address, account),
    fauAllowance: (holder, spender) => erc20Allowance(chain, fau.address, holder, spender),
  };
}
