import { hashMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPayeeDestinationId } from "../../../../src/chain/index.ts";
import { configWithAccountWallets } from "../../fixtures.ts";
import {
  payee,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";
import {
  destinationPath,
  fauSepolia,
  registerPayeeDestination,
  usdcBase,
} from "../../payee-destination-support.ts";
import { sessionCookieOf, signInWithWallet, walletKey, withSession } from "../auth/sign-in.ts";

let server: TestServer;
beforeAll(async () => {
  // The first two wallets of the test mnemonic sign in to the sandbox account and to acct_other.
  const config = configWithAccountWallets(
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  );
  server = await startTestServer({ config });
});
afterAll(() => server.close());

/** A new wallet, signed in to an account of its own; its key, address and session. */
async function newSignedInWallet() {
  const key = generatePrivateKey();
  const wallet = privateKeyToAccount(key);
  const { cookie } = await signInWithWallet(server, key);
  return { wallet, as: withSession(cookie) };
}

const fauDestinationOf = (walletAddress: `0x${string}`) =>
  formatPayeeDestinationId({
    walletAddress,
    chainId: fauSepolia.chainId,
    tokenAddress: fauSepolia.tokenAddress,
  });
const usdcDestinationOf = (walletAddress: `0x${string}`) =>
  formatPayeeDestinationId({ walletAddress, chainId: usdcBase.chainId, tokenAddress: usdcBase.tokenAddress });
const kyt = {
  mode: "kyt_all_wallets",
  screeningProvider: "merklescience",
  hideUntilApproved: true,
  hidePayeeAddress: false,
};

async function create(as: ReturnType<typeof withSession>, body: Record<string, unknown>) {
  const answer = await server.call("POST", "/v1/payee-destination", { ...as, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe("createPayeeDestinationV1 (POST /v1/payee-destination)", () => {
  it("registers the signed-in wallet's destination, active, with its access policy", async () => {
    const { wallet, as } = await newSignedInWallet();
    const created = await create(as, { ...fauSepolia, accessPolicy: kyt });
    expect(schemaErrors("PayeeDestinationV1", created)).toBe("");
    const destinationId = fauDestinationOf(wallet.address);
    expect(created).toEqual({
      id: `sepolia:${wallet.address}:${fauSepolia.tokenAddress}`,
      destinationId,
      walletAddress: wallet.address,
      walletType: "eoa",
      chainId: 11155111,
      network: "sepolia",
      tokenAddress: fauSepolia.tokenAddress,
      paymentCurrency: "FAU-sepolia",
      humanReadableInteropAddress: destinationId.slice(0, destinationId.lastIndexOf(":")),
      binaryInteropAddress: `0x0001000003aa36a714${wallet.address.slice(2).toLowerCase()}`,
      claimed: true,
      active: true,
      accessPolicy: kyt,
      pendingWalletChange: null,
      createdAt: startInstant,
      deactivatedAt: null,
    });
    const read = await server.call("GET", "/v1/payee-destination", as);
    expect(read.body).toEqual(created);
  });

  it("registers a record the deprecated /v2 operations read, in the account the wallet signs in to", async () => {
    const sandboxWallet = privateKeyToAccount(
      "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    );
    const as = withSession((await signInWithWallet(server)).cookie);
    const created = await create(as, usdcBase);
    const throughV2 = await server.call("GET", destinationPath(created.destinationId), { auth: "clientId" });
    expect(throughV2.status).toBe(200);
    const {
      walletType: _type,
      claimed: _claimed,
      accessPolicy: _policy,
      pendingWalletChange: _change,
      ...v2
    } = created;
    expect(throughV2.body).toEqual(v2);
    const active = await server.call("GET", `/v2/payee-destination?walletAddress=${sandboxWallet.address}`, {
      auth: "clientId",
    });
    expect(active.body.destinationId).toBe(usdcDestinationOf(sandboxWallet.address));
  });

  it("makes the new destination the wallet's active one, deactivating the former", async () => {
    const { wallet, as } = await newSignedInWallet();
    await create(as, fauSepolia);
    await create(as, usdcBase);
    const former = await server.call(
      "GET",
      `/v1/payee-destination/lookup?destinationId=${encodeURIComponent(fauDestinationOf(wallet.address))}`,
      as,
    );
    expect(former.body.active).toBe(false);
    expect(former.body.deactivatedAt).toBe(startInstant);
    expect((await server.call("GET", "/v1/payee-destination", as)).body.destinationId).toBe(
      usdcDestinationOf(wallet.address),
    );
  });

  it("refuses another wallet, an unsupported chain and an unknown token, naming each", async () => {
    const { as } = await newSignedInWallet();
    const cases = [
      [{ ...fauSepolia, walletAddress: payee }, "/body/walletAddress"],
      [{ ...fauSepolia, chainId: 999 }, "/body/chainId"],
      [{ ...fauSepolia, tokenAddress: payee }, "/body/tokenAddress"],
    ] as const;
    for (const [body, path] of cases) {
      const answer = await server.call("POST", "/v1/payee-destination", { ...as, body });
      expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
        path,
      ]);
    }
    expect((await server.call("GET", "/v1/payee-destination", as)).body).toBeNull();
  });

  it("refuses a session opened with an email address (403) and a call without a session (401)", async () => {
    const registered = await server.call("POST", "/v1/auth/register", {
      auth: "none",
      body: { email: "payee@example.com", password: "correct horse battery staple" },
    });
    const asEmail = withSession(sessionCookieOf(registered));
    const answer = await server.call("POST", "/v1/payee-destination", { ...asEmail, body: fauSepolia });
    expect(answer.status).toBe(403);
    expect(answer.body.type).toBe("/problems/forbidden");
    expect(
      (await server.call("POST", "/v1/payee-destination", { auth: "none", body: fauSepolia })).status,
    ).toBe(401);
  });
});

describe("getActivePayeeDestinationV1 (GET /v1/payee-destination)", () => {
  it("answers null for a wallet without an active destination", async () => {
    const { as } = await newSignedInWallet();
    const answer = await server.call("GET", "/v1/payee-destination", as);
    expect(answer.status).toBe(200);
    expect(answer.body).toBeNull();
  });
});

describe("updatePayeeDestinationV1 (PUT /v1/payee-destination)", () => {
  it("changes the access policy in place for the same chain and token", async () => {
    const { as } = await newSignedInWallet();
    const created = await create(as, { ...fauSepolia, accessPolicy: kyt });
    const off = { mode: "off", screeningProvider: null, hideUntilApproved: false, hidePayeeAddress: false };
    const answer = await server.call("PUT", "/v1/payee-destination", {
      ...as,
      body: { ...fauSepolia, accessPolicy: off },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ...created, accessPolicy: off });
  });

  it("moves the wallet to another chain and token, keeping its access policy", async () => {
    const { wallet, as } = await newSignedInWallet();
    await create(as, { ...fauSepolia, accessPolicy: kyt });
    const answer = await server.call("PUT", "/v1/payee-destination", { ...as, body: usdcBase });
    expect(answer.status).toBe(200);
    expect(answer.body.destinationId).toBe(usdcDestinationOf(wallet.address));
    expect(answer.body.accessPolicy).toEqual(kyt);
    const former = await server.call(
      "GET",
      `/v1/payee-destination/lookup?destinationId=${encodeURIComponent(fauDestinationOf(wallet.address))}`,
      as,
    );
    expect(former.body.active).toBe(false);
  });

  it("keeps a change to another wallet pending, with the message its co-signers sign, until cancelled", async () => {
    const { wallet, as } = await newSignedInWallet();
    const created = await create(as, fauSepolia);
    const answer = await server.call("PUT", "/v1/payee-destination", {
      ...as,
      body: { ...fauSepolia, walletAddress: payee },
    });
    expect(answer.status, answer.text).toBe(200);
    const change = answer.body.pendingWalletChange;
    const message = [
      "Change the payee destination wallet",
      `from ${wallet.address} on chain 11155111`,
      `to ${payee} on chain 11155111`,
      `token ${fauSepolia.tokenAddress} -> ${fauSepolia.tokenAddress}`,
      `nonce ${change.nonce}`,
    ].join("\n");
    expect(answer.body).toEqual({
      ...created,
      pendingWalletChange: {
        changeRequestId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        status: "pending_signatures",
        payeeIdentityAddress: wallet.address,
        nonce: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        currentChainId: 11155111,
        targetChainId: 11155111,
        currentWalletAddress: wallet.address,
        newWalletAddress: payee,
        currentTokenAddress: fauSepolia.tokenAddress,
        targetTokenAddress: fauSepolia.tokenAddress,
        safeMessageHash: hashMessage(message),
        message,
        createdAt: startInstant,
      },
    });
    // The wallet is not changed: the destination still pays the signed-in wallet.
    expect((await server.call("GET", "/v1/payee-destination", as)).body.walletAddress).toBe(wallet.address);
    const again = await server.call("PUT", "/v1/payee-destination", { ...as, body: usdcBase });
    expect(again.status).toBe(400);
    expect(again.body.type).toBe("/problems/invalid-state");

    const wrong = await server.call("PATCH", "/v1/payee-destination/wallet-change/cancel", {
      ...as,
      body: { changeRequestId: "01KMB3A9C2V4X8R6T3N5B1D0HQ" },
    });
    expect(wrong.status).toBe(404);
    const cancelled = await server.call("PATCH", "/v1/payee-destination/wallet-change/cancel", {
      ...as,
      body: { changeRequestId: change.changeRequestId },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      success: true,
      message: "Pending payee destination wallet change cancelled successfully",
    });
    expect((await server.call("GET", "/v1/payee-destination", as)).body).toEqual(created);
  });

  it("answers 404 when the wallet has no active destination", async () => {
    const { as } = await newSignedInWallet();
    expect((await server.call("PUT", "/v1/payee-destination", { ...as, body: fauSepolia })).status).toBe(404);
  });
});

describe("cancelPayeeDestinationWalletChange (PATCH /v1/payee-destination/wallet-change/cancel)", () => {
  it("answers 404 when no change is pending", async () => {
    const { as } = await newSignedInWallet();
    await create(as, fauSepolia);
    const answer = await server.call("PATCH", "/v1/payee-destination/wallet-change/cancel", {
      ...as,
      body: { changeRequestId: "01KMB3A9C2V4X8R6T3N5B1D0HQ" },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe(
      "No wallet change 01KMB3A9C2V4X8R6T3N5B1D0HQ is waiting on the signed-in wallet's active payee destination.",
    );
  });
});

describe("getPayeeDestinationV1 (GET /v1/payee-destination/lookup)", () => {
  it("answers the wallet's destination by either spelling, another wallet's 403, an unknown one 404", async () => {
    const { wallet, as } = await newSignedInWallet();
    const created = await create(as, fauSepolia);
    for (const key of [created.destinationId, created.id]) {
      const read = await server.call(
        "GET",
        `/v1/payee-destination/lookup?destinationId=${encodeURIComponent(key)}`,
        as,
      );
      expect(read.body).toEqual(created);
    }
    // A destination of the account that another wallet registered, with its v2 signature.
    const sandboxSession = withSession((await signInWithWallet(server)).cookie);
    const registered = await registerPayeeDestination(server, privateKeyToAccount(generatePrivateKey()));
    const foreign = await server.call(
      "GET",
      `/v1/payee-destination/lookup?destinationId=${encodeURIComponent(registered.destinationId)}`,
      sandboxSession,
    );
    expect(foreign.status).toBe(403);
    const unknown = await server.call(
      "GET",
      `/v1/payee-destination/lookup?destinationId=${encodeURIComponent(fauDestinationOf(payee))}`,
      as,
    );
    expect(unknown.status).toBe(404);
    expect(wallet.address).not.toBe(payee);
  });
});

describe("deactivatePayeeDestinationV1 (PATCH /v1/payee-destination/deactivate)", () => {
  it("deactivates the wallet's destination, which /v2 then reads inactive; again is invalid-state", async () => {
    const { as } = await newSignedInWallet();
    const created = await create(as, fauSepolia);
    const answer = await server.call("PATCH", "/v1/payee-destination/deactivate", {
      ...as,
      body: { destinationId: created.destinationId },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true, message: "Payee destination deactivated successfully" });
    expect((await server.call("GET", "/v1/payee-destination", as)).body).toBeNull();
    const again = await server.call("PATCH", "/v1/payee-destination/deactivate", {
      ...as,
      body: { destinationId: created.destinationId },
    });
    expect(again.status).toBe(400);
    expect(again.body.type).toBe("/problems/invalid-state");
  });

  it("deactivates a destination registered through /v2 with a signature, and /v2 reads it inactive", async () => {
    const sandboxWallet = privateKeyToAccount(walletKey);
    const registered = await registerPayeeDestination(server, sandboxWallet, fauSepolia);
    const as = withSession((await signInWithWallet(server, walletKey)).cookie);
    expect((await server.call("GET", "/v1/payee-destination", as)).body.destinationId).toBe(
      registered.destinationId,
    );
    const answer = await server.call("PATCH", "/v1/payee-destination/deactivate", {
      ...as,
      body: { destinationId: registered.id },
    });
    expect(answer.status).toBe(200);
    const read = await server.call("GET", destinationPath(registered.destinationId), { auth: "clientId" });
    expect(read.body).toEqual({ ...registered, active: false, deactivatedAt: startInstant });
  });

  it("refuses a destination the account does not have, naming it", async () => {
    const { as } = await newSignedInWallet();
    const destinationId = fauDestinationOf(payee);
    const answer = await server.call("PATCH", "/v1/payee-destination/deactivate", {
      ...as,
      body: { destinationId },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/destinationId",
        message: `is not a payee destination of this account, got "${destinationId}"`,
      },
    ]);
  });
});

describe("lookupPayoutDestination (GET /v1/payee-destination/payout-lookup)", () => {
  it("answers the routing members of a recipient's active destination in the account, or null", async () => {
    const sandboxSession = withSession((await signInWithWallet(server)).cookie);
    const recipient = privateKeyToAccount(generatePrivateKey());
    const query = (wallet: string) => `/v1/payee-destination/payout-lookup?walletAddress=${wallet}`;
    expect((await server.call("GET", query(recipient.address), sandboxSession)).body).toBeNull();
    const registered = await registerPayeeDestination(server, recipient, usdcBase);
    const found = await server.call("GET", query(recipient.address.toLowerCase()), sandboxSession);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      destinationId: registered.destinationId,
      walletAddress: recipient.address,
      tokenAddress: usdcBase.tokenAddress,
      chainId: 8453,
      claimed: true,
    });
    // Another account does not see it.
    const { as } = await newSignedInWallet();
    expect((await server.call("GET", query(recipient.address), as)).body).toBeNull();
  });
});
