import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { JsonObject } from "../spec/spec-document.ts";
import { readTypedData } from "../wire/typed-data.ts";
import type { ScenarioRun } from "./scenario-run.ts";

const text = (value: unknown) => JSON.stringify(value);

/**
 * Has `wallet` sign a signing session for `action` on the chain and token of the spec's example,
 * and answers the body to submit. Every run signs with wallets of its own, made for it.
 */
async function signSession(run: ScenarioRun, wallet: PrivateKeyAccount, action: "add" | "deactivate") {
  const query = { walletAddress: wallet.address, action };
  const session = await run.send("getPayeeDestinationSigningData", { query }, [200]);
  const signature = await wallet.signTypedData(readTypedData(session?.typedData) as never);
  return { nonce: String(session?.nonce), signature };
}

/** Registers a destination for a new wallet, after a stranger's signature over its session is refused. */
async function registerNewDestination(
  run: ScenarioRun,
): Promise<{ wallet: PrivateKeyAccount; created: JsonObject }> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const own = await signSession(run, wallet, "add");
  const forged = await signSession(run, stranger, "add");
  await run.send(
    "createPayeeDestination",
    { body: { nonce: own.nonce, signature: forged.signature } },
    [400],
  );
  const created = await run.send("createPayeeDestination", { body: own }, [201]);
  if (typeof created?.destinationId !== "string" || typeof created.id !== "string") {
    throw run.fail("createPayeeDestination: the 201 body has no destinationId or id");
  }
  return { wallet, created };
}

/** A stranger's signature refused, the wallet's accepted; then read by id and as the active one. */
export async function registerThenRead(run: ScenarioRun): Promise<void> {
  const { wallet, created } = await registerNewDestination(run);
  run.expect(created.walletAddress === wallet.address, `walletAddress ${text(created.walletAddress)}`);
  run.expect(created.active === true, `active ${text(created.active)}`);
  const read = await run.send("getPayeeDestination", { path: { destinationId: String(created.id) } }, [200]);
  run.expect(read?.destinationId === created.destinationId, `read back ${text(read?.destinationId)}`);
  const active = await run.send(
    "getActivePayeeDestination",
    { query: { walletAddress: wallet.address } },
    [200],
  );
  run.expect(active?.destinationId === created.destinationId, `active ${text(active?.destinationId)}`);
}

/** A secure payment to a registered destination; after its deactivation, the same payment refused. */
export async function payThenDeactivate(run: ScenarioRun): Promise<void> {
  const { wallet, created } = await registerNewDestination(run);
  const destinationId = String(created.destinationId);
  const body = { requests: [{ destinationId, amount: "1" }] };
  await run.send("createSecurePayment", { body }, [201]);
  const deactivation = await signSession(run, wallet, "deactivate");
  const deactivated = await run.send(
    "deactivatePayeeDestination",
    { path: { destinationId }, body: deactivation },
    [200],
  );
  run.expect(deactivated?.active === false, `active ${text(deactivated?.active)} after deactivation`);
  const none = await run.send(
    "getActivePayeeDestination",
    { query: { walletAddress: wallet.address } },
    [200],
  );
  // A JSON null is read as { items: null }.
  run.expect(none?.items === null, `the wallet's active destination is ${text(none)}, not null`);
  await run.send("createSecurePayment", { body }, [400]);
}
