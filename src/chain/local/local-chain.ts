import { createClient, http } from "viem";
import { getChainId } from "viem/actions";
import { sepolia } from "viem/chains";
import { chainIds } from "../networks.ts";
import { startAnvil } from "./anvil-process.ts";
import { type InstalledContracts, installRequestContracts } from "./install-contracts.ts";

/** A local sepolia with the Request Network contracts and funded accounts. */
export interface LocalChain extends InstalledContracts {
  network: "sepolia";
  chainId: number;
  rpcUrl: string;
  /** Whether payreq started the node (and stops it) or attached to one the user runs. */
  started: boolean;
  /** The process id of the node payreq started; undefined for an attached node. */
  nodePid: number | undefined;
  /** Stops the node payreq started; leaves an attached node running. */
  stop(): Promise<void>;
}

/**
 * Starts anvil as a local sepolia (or attaches to the node at `rpcUrl`) and installs the payment
 * contracts, test tokens and funded accounts on it.
 */
export async function startLocalChain(options: { rpcUrl?: string } = {}): Promise<LocalChain> {
  const chainId = chainIds.sepolia;
  const anvil = options.rpcUrl === undefined ? await startAnvil({ chainId }) : undefined;
  const rpcUrl = anvil?.rpcUrl ?? (options.rpcUrl as string);
  try {
    const nodeChainId = await getChainId(createClient({ transport: http(rpcUrl) }));
    if (nodeChainId !== chainId) {
      throw new Error(
        `the node at ${rpcUrl} runs chain ${nodeChainId}; a local sepolia needs chain id ${chainId}`,
      );
    }
    const installed = await installRequestContracts(rpcUrl, sepolia);
    return {
      ...installed,
      network: "sepolia",
      chainId,
      rpcUrl,
      started: anvil !== undefined,
      nodePid: anvil?.pid,
      stop: async () => {
        await anvil?.stop();
      },
    };
  } catch (error) {
    await anvil?.stop();
    throw error;
  }
}
