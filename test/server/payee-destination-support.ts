import type { PrivateKeyAccount } from "viem/accounts";
import { readTypedData } from "../../src/wire/typed-data.ts";
import type { CallOptions, TestServer } from "./helpers.ts";

export const fauSepolia = {
  chainId: 11155111,
  tokenAddress: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C" as const,
};
export const usdcBase = {
  chainId: 8453,
  tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" as const,
};

/** Client-ID calls from the browser origin: the only credential payee destinations take. */
export const asBrowser = { auth: "clientId" } as const satisfies CallOptions;

/** Gets signing data for `action` (as the client ID of `as`) and has `signer` sign its typed data. */
export async function signPayeeDestination(
  server: TestServer,
  signer: PrivateKeyAccount,
  action: "add" | "deactivate",
  destination: { chainId: number; tokenAddress: string },
  wallet: string = signer.address,
  as: CallOptions = asBrowser,
): Promise<{ nonce: string; signature: `0x${string}`; destinationId: string }> {
  const query = new URLSearchParams({
    walletAddress: wallet,
    action,
    tokenAddress: destination.tokenAddress,
    chainId: String(destination.chainId),
  });
  const answer = await server.call("GET", `/v2/payee-destination/signing-data?${query}`, as);
  if (answer.status !== 200) throw new Error(`signing data refused: ${answer.text}`);
  const signature = await signer.signTypedData(readTypedData(answer.body.typedData) as never);
  return { nonce: answer.body.nonce, signature, destinationId: answer.body.destinationId };
}

/** Registers `signer`'s destination (in the account of the client ID of `as`) and returns it as answered. */
export async function registerPayeeDestination(
  server: TestServer,
  signer: PrivateKeyAccount,
  destination: { chainId: number; tokenAddress: string } = fauSepolia,
  as: CallOptions = asBrowser,
) {
  const { nonce, signature } = await signPayeeDestination(
    server,
    signer,
    "add",
    destination,
    signer.address,
    as,
  );
  const answer = await server.call("POST", "/v2/payee-destination", { ...as, body: { nonce, signature } });
  if (answer.status !== 201) throw new Error(`registration refused: ${answer.text}`);
  return answer.body;
}

/** The destination in a path: percent-encoded, as `#` must be. */
export const destinationPath = (key: string) => `/v2/payee-destination/${encodeURIComponent(key)}`;
