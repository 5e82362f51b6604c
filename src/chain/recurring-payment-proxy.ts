import type { Address } from "viem";
import { chainIds, isNetworkName, type NetworkName } from "./networks.ts";

// The ERC20RecurringPaymentProxy deployments of version 0.2.0, as the Request Network contracts
// repository lists them (packages/smart-contracts/src/lib/artifacts/ERC20RecurringPaymentProxy);
// @requestnetwork/smart-contracts 0.47.0 predates them.
const recurringPaymentProxies: Readonly<Record<NetworkName, Address>> = {
  mainnet: "0xeA8c5cc64A1C9E323209D12243822c31BeaDeD91",
  base: "0xDc8781fFAb20Fef4aB0472c3d6E50073B540Ed9e",
  optimism: "0x368d9F4cEb9bbF06d1fF89dfE304c5dCfb7C0aed",
  "arbitrum-one": "0xE4e709F30d9c8b0a8923d18DEF6Ae6ac979E7Ad1",
  matic: "0xa58a5bf7F70c14eD1804192643c68201C541681c",
  sepolia: "0xD7b1553ffE25491377a505f97f92cc44427D80A0",
};

/** The recurring payment proxy of a network, or undefined for a network we do not support. */
export function getRecurringPaymentProxy(network: string): Address | undefined {
  return isNetworkName(network) ? recurringPaymentProxies[network] : undefined;
}

/** What a recurring payment permit says, in base units and Unix seconds. */
export interface SchedulePermitInput {
  network: NetworkName;
  verifyingContract: Address;
  subscriber: Address;
  token: Address;
  recipient: Address;
  feeAddress: Address;
  amount: bigint;
  feeAmount: bigint;
  gasFee: bigint;
  periodSeconds: number;
  firstExec: number;
  totalExecutions: number;
  nonce: bigint;
  deadline: number;
}

/** The struct the payer signs, member by member, as the service publishes it. */
export const schedulePermitFields = [
  { name: "subscriber", type: "address" },
  { name: "token", type: "address" },
  { name: "recipient", type: "address" },
  { name: "feeAddress", type: "address" },
  { name: "amount", type: "uint128" },
  { name: "feeAmount", type: "uint128" },
  { name: "gasFee", type: "uint128" },
  { name: "periodSeconds", type: "uint32" },
  { name: "firstExec", type: "uint32" },
  { name: "totalExecutions", type: "uint8" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

/**
 * The EIP-712 typed data of a recurring payment permit, in its JSON form: large integers as
 * decimal strings, small ones as numbers, the way `eth_signTypedData_v4` and ethers take them.
 */
export function buildSchedulePermit(input: SchedulePermitInput) {
  return {
    domain: {
      name: "ERC20RecurringPaymentProxy" as const,
      version: "1",
      chainId: chainIds[input.network],
      verifyingContract: input.verifyingContract,
    },
    types: { SchedulePermit: schedulePermitFields.map((field) => ({ ...field })) },
    primaryType: "SchedulePermit" as const,
    values: {
      subscriber: input.subscriber,
      token: input.token,
      recipient: input.recipient,
      feeAddress: input.feeAddress,
      amount: input.amount.toString(),
      feeAmount: input.feeAmount.toString(),
      gasFee: input.gasFee.toString(),
      periodSeconds: input.periodSeconds,
      firstExec: input.firstExec,
      totalExecutions: input.totalExecutions,
      nonce: input.nonce.toString(),
      deadline: input.deadline,
    },
  };
}

export type SchedulePermit = ReturnType<typeof buildSchedulePermit>;
