import { formatUnits } from "viem";
import type { TestServer } from "../../helpers.ts";
import type { SepoliaDeployment } from "./sepolia-deployment.ts";

/**
 * Copies the payer's on-chain FAU and ETH balances into the sandbox wallet book, which stands in
 * for the chain the real service reads when it fills `hasEnoughBalance` and `hasEnoughGas`.
 */
export async function mirrorPayerBalances(server: TestServer, deployment: SepoliaDeployment): Promise<void> {
  const { chain, payer, fau, eth } = deployment;
  const answer = await server.call("POST", "/sandbox/wallets", {
    body: {
      address: payer.address,
      balances: [
        { currency: fau.id, amount: formatUnits(await deployment.fauBalanceOf(payer.address), fau.decimals) },
        { currency: eth.id, amount: formatUnits(await chain.balanceOf(payer.address), eth.decimals) },
      ],
    },
  });
  if (answer.status !== 200) throw new Error(`wallet book update failed: ${answer.text}`);
}
