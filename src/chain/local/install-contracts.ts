import {
  type Address,
  type Chain,
  type Client,
  concatHex,
  createClient,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  numberToHex,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  getCode,
  getStorageAt,
  getTransactionCount,
  getTransactionReceipt,
  readContract,
  sendTransaction,
  waitForTransactionReceipt,
} from "viem/actions";
import { getOfficialContracts, type OfficialContracts } from "../contracts.ts";
import { listTokens, type TokenRecord } from "../tokens.ts";
import { type DevAccount, devAccounts } from "./default-accounts.ts";
import { fundedEther, fundedTokenUnits } from "./funding.ts";
import { type RequestContractName, readCreationBytecode } from "./request-bytecode.ts";

/** What was installed on the chain. */
export interface InstalledContracts {
  contracts: OfficialContracts;
  tokens: TokenRecord[];
  accounts: readonly DevAccount[];
}

// Storage slots copied from the deployment to the official address: the contracts keep what their
// constructors set (owner, proxies of the batch contract, a token's name) in their first slots.
const copiedSlots = 16;

/**
 * Installs the Request Network payment contracts at their official sepolia addresses on a node
 * that accepts `anvil_setCode` (or `hardhat_setCode`): each is deployed from the package's
 * bytecode, then its runtime code and constructor-set storage are copied to the official address.
 * The sepolia test tokens go to their addresses the same way, and the test mnemonic's accounts
 * get ETH and each token.
 */
export async function installRequestContracts(rpcUrl: string, chain: Chain): Promise<InstalledContracts> {
  const client = createClient({ chain, transport: http(rpcUrl) });
  const node = new DevNode(client);
  const deployer = devAccounts[0] as DevAccount;
  await Promise.all(devAccounts.map((account) => node.setBalance(account.address, fundedEther)));
  const signer = privateKeyToAccount(deployer.privateKey);
  const wallet = createClient({ chain, transport: http(rpcUrl), account: signer });
  const firstNonce = await getTransactionCount(client, { address: deployer.address, blockTag: "pending" });
  let deployments = 0;
  const deploy = async (name: RequestContractName, args: Hex = "0x"): Promise<Address> => {
    const nonce = firstNonce + deployments++;
    const hash = await sendTransaction(wallet, {
      data: concatHex([readCreationBytecode(name), args]),
      nonce,
      gas: 8_000_000n,
    });
    // anvil mines each transaction as it arrives; a node that mines on a timer is waited for.
    const receipt = await getTransactionReceipt(client, { hash }).catch(() =>
      waitForTransactionReceipt(client, { hash, pollingInterval: 100 }),
    );
    if (!receipt.contractAddress || receipt.status !== "success") throw new Error(`deploying ${name} failed`);
    return receipt.contractAddress;
  };
  const official = getOfficialContracts("sepolia") as OfficialContracts;
  // No conversion proxies and no price feeds: the batch contract pays without conversion.
  const batchArgs = encodeAbiParameters(
    ["address", "address", "address", "address", "address", "address"].map((type) => ({ type })),
    [
      official.erc20FeeProxy,
      official.ethereumFeeProxy,
      zeroAddress,
      zeroAddress,
      zeroAddress,
      deployer.address,
    ],
  );
  const [erc20Proxy, nativeProxy, batch, token] = await Promise.all([
    deploy("erc20FeeProxy"),
    deploy("ethereumFeeProxy"),
    deploy("batchConversionPayments", batchArgs),
    deploy("testErc20", encodeAbiParameters([{ type: "uint256" }], [10n ** 21n])),
  ]);
  const tokens = listTokens({ network: "sepolia" }).filter((record) => record.type === "ERC20");
  // Every test token runs one ERC-20's code (18 decimals, as each sepolia test token has).
  const balanceSlot = await node.findBalanceSlot(token, deployer.address);
  await Promise.all([
    node.copyContract(erc20Proxy, official.erc20FeeProxy),
    node.copyContract(nativeProxy, official.ethereumFeeProxy),
    node.copyContract(batch, official.batchConversionPayments),
    ...tokens.map(async (record) => {
      await node.copyContract(token, record.address);
      const units = fundedTokenUnits * 10n ** BigInt(record.decimals);
      await Promise.all(
        devAccounts.map((account) =>
          node.setStorage(record.address, mappingSlot(account.address, balanceSlot), units),
        ),
      );
    }),
  ]);
  return { contracts: official, tokens, accounts: devAccounts };
}

/** The storage slot of `key` in a Solidity mapping declared at `slot`. */
function mappingSlot(key: Address, slot: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [key, slot]));
}

/** The node's development methods, in anvil's spelling or Hardhat's. */
class DevNode {
  private prefix: "anvil" | "hardhat" = "anvil";

  constructor(private readonly client: Client) {}

  private async call(method: string, params: unknown[]): Promise<unknown> {
    const request = this.client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
    try {
      return await request({ method: `${this.prefix}_${method}`, params });
    } catch (error) {
      if (this.prefix === "hardhat") throw error;
      this.prefix = "hardhat";
      return request({ method: `hardhat_${method}`, params }).catch(() => {
        throw new Error(`the node accepts neither anvil_${method} nor hardhat_${method}`, { cause: error });
      });
    }
  }

  setBalance(address: Address, wei: bigint) {
    return this.call("setBalance", [address, numberToHex(wei)]);
  }

  setStorage(address: Address, slot: Hex, value: bigint) {
    return this.call("setStorageAt", [address, slot, numberToHex(value, { size: 32 })]);
  }

  /** Copies `from`'s runtime code and first storage slots to `to`. */
  async copyContract(from: Address, to: Address): Promise<void> {
    const slots = Array.from({ length: copiedSlots }, (_, slot) => numberToHex(slot, { size: 32 }));
    await Promise.all(
      slots.map(async (slot) => {
        const value = await getStorageAt(this.client, { address: from, slot });
        if (value && BigInt(value) !== 0n) await this.setStorage(to, slot, BigInt(value));
      }),
    );
    const code = await getCode(this.client, { address: from });
    if (!code) throw new Error(`no code at ${from}`);
    await this.call("setCode", [to, code]);
  }

  /** The slot of a token's balances mapping: the one holding `holder`'s balance as `balanceOf` reads it. */
  async findBalanceSlot(token: Address, holder: Address): Promise<bigint> {
    const balance = await readContract(this.client, {
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder],
    });
    for (let slot = 0n; slot < BigInt(copiedSlots); slot++) {
      const value = await getStorageAt(this.client, { address: token, slot: mappingSlot(holder, slot) });
      if (value && BigInt(value) === balance) return slot;
    }
    throw new Error(`cannot find the balances of the token at ${token}`);
  }
}
