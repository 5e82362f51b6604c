import { type Address, encodeDeployData, encodeFunctionData, zeroAddress } from "viem";
import {
  findToken,
  getOfficialContracts,
  type OfficialContracts,
  type PaymentContracts,
  type TokenRecord,
} from "../../../src/chain/index.ts";
import { erc20Allowance, erc20BalanceOf } from "./erc20-reads.ts";
import { batchConversionPayments, erc20FeeProxy, ethereumFeeProxy, testErc20 } from "./request-contracts.ts";
import { type TestAccount, TestChain } from "./test-chain.ts";

/** A chain with the Request payment contracts, a payer holding ETH and two test tokens. */
export interface PaymentDeployment {
  chain: TestChain;
  owner: TestAccount;
  payer: TestAccount;
  /** Sepolia's official proxies (code written at their addresses) and a local batch contract. */
  contracts: PaymentContracts;
  /** Two ERC-20 tokens owned by the payer, described as Sepolia currencies. */
  tokens: [TokenRecord, TokenRecord];
  erc20BalanceOf(token: TokenRecord, account: Address): Promise<bigint>;
  erc20Allowance(token: TokenRecord, owner: Address, spender: Address): Promise<bigint>;
  /** Sets the batch contract's fee in basis points, with a USD cap set so that ERC-20 batches pay it. */
  setBatchFee(basisPoints: number): Promise<void>;
}

const ether = 10n ** 18n;

/** Deploys everything a payment scenario needs, from the bytecode @requestnetwork/smart-contracts ships. */
export async function deployPaymentContracts(): Promise<PaymentDeployment> {
  const chain = await TestChain.create();
  const owner = await chain.createAccount(1, 10n * ether);
  const payer = await chain.createAccount(2, 100n * ether);
  const official = getOfficialContracts("sepolia") as OfficialContracts;

  await chain.constructAt(owner, official.erc20FeeProxy, erc20FeeProxy.bytecode);
  await chain.constructAt(owner, official.ethereumFeeProxy, ethereumFeeProxy.bytecode);
  const batch = await chain.deploy(
    owner,
    encodeDeployData({
      abi: batchConversionPayments.abi,
      bytecode: batchConversionPayments.bytecode,
      // No conversion proxies and no price feeds: this batch only pays without conversion.
      args: [
        official.erc20FeeProxy,
        official.ethereumFeeProxy,
        zeroAddress,
        zeroAddress,
        zeroAddress,
        owner.address,
      ],
    }),
  );

  const fau = findToken("FAU-sepolia") as TokenRecord;
  const tokens: TokenRecord[] = [];
  for (const symbol of ["TKA", "TKB"]) {
    const address = await chain.deploy(
      payer,
      encodeDeployData({ abi: testErc20.abi, bytecode: testErc20.bytecode, args: [1_000_000n * ether] }),
    );
    tokens.push({ ...fau, id: `${symbol}-sepolia`, symbol, name: symbol, address, hash: address });
  }

  return {
    chain,
    owner,
    payer,
    contracts: {
      erc20FeeProxy: official.erc20FeeProxy,
      ethereumFeeProxy: official.ethereumFeeProxy,
      batchConversionPayments: batch,
    },
    tokens: tokens as [TokenRecord, TokenRecord],
    erc20BalanceOf: (token, account) => erc20BalanceOf(chain, token.address, account),
    erc20Allowance: (token, holder, spender) => erc20Allowance(chain, token.address, holder, spender),
    async setBatchFee(basisPoints) {
      const abi = batchConversionPayments.abi;
      await chain.send(owner, {
        to: batch,
        data: encodeFunctionData({ abi, functionName: "setBatchFee", args: [basisPoints] }),
      });
      // Without a USD cap the contract charges ERC-20 batches no fee at all (calculateBatchFeeToPay).
      const cap = 150n * 10n ** 8n;
      await chain.send(owner, {
        to: batch,
        data: encodeFunctionData({ abi, functionName: "setBatchFeeAmountUSDLimit", args: [cap] }),
      });
    },
  };
}
