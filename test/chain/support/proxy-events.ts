import { type Abi, type Address, decodeEventLog, isAddressEqual } from "viem";
import { erc20FeeProxyAbi, ethereumFeeProxyAbi } from "../../../src/chain/index.ts";
import type { TestLog } from "./test-chain.ts";

/** A decoded TransferWithReferenceAndFee event, with the raw reference topic. */
export interface ProxyEvent {
  tokenAddress?: Address;
  to: Address;
  amount: bigint;
  paymentReference: `0x${string}`;
  feeAmount: bigint;
  feeAddress: Address;
  referenceTopic: `0x${string}` | undefined;
}

function decodeFrom(logs: TestLog[], emitter: Address, abi: Abi): ProxyEvent[] {
  return logs
    .filter((log) => isAddressEqual(log.address, emitter))
    .map((log) => {
      const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics });
      return { ...(decoded.args as unknown as ProxyEvent), referenceTopic: log.topics[1] };
    });
}

/** The TransferWithReferenceAndFee events an ERC20FeeProxy emitted in these logs. */
export function erc20ProxyEvents(logs: TestLog[], proxy: Address): ProxyEvent[] {
  return decodeFrom(logs, proxy, erc20FeeProxyAbi);
}

/** The TransferWithReferenceAndFee events an EthereumFeeProxy emitted in these logs. */
export function ethereumProxyEvents(logs: TestLog[], proxy: Address): ProxyEvent[] {
  return decodeFrom(logs, proxy, ethereumFeeProxyAbi);
}
