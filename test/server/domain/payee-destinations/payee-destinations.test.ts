import { decodeTime } from "ulid";
import { decodeFunctionData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  erc20FeeProxyAbi,
  formatPayeeDestinationId,
  getOfficialContracts,
} from "../../../../src/chain/index.ts";
import {
  asOtherAccount,
  browserOrigin,
  payer,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";
import {
  asBrowser,
  destinationPath,
  fauSepolia,
  registerPayeeDestination,
  signPayeeDestination,
  usdcBase,
} from "../../payee-destination-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

const newWallet = () => privateKeyToAccount(generatePrivateKey());
const fau = fauSepolia.tokenAddress;

const signingDataQuery = (wallet: string, overrides: Record<string, string> = {}) =>
  `/v2/payee-destination/signing-data?${new URLSearchParams({
    walletAddress: wallet,
    action: "add",
    tokenAddress: fau,
    chainId: "11155111",
    ...overrides,
  })}`;

const register = (body: unknown) => server.call("POST", "/v2/payee-destination", { ...asBrowser, body });

describe("getPayeeDestinationSigningData (GET /v2/payee-destination/signing-data)", () => {
  it("answers the typed data the wallet signs, with a nonce good for 10 minutes", async () => {
    const wallet = newWallet();
    const answer = await server.call("GET", signingDataQuery(wallet.address.toLowerCase()), asBrowser);
    expect(answer.status).toBe(200);
    const destinationId = formatPayeeDestinationId({
      walletAddress: wallet.address,
      chainId: 11155111,
      tokenAddress: fau,
    });
    const { nonce } = answer.body;
    expect(decodeTime(nonce)).toBe(Date.parse(startInstant));
    const expiresAt = "2026-04-12T10:10:00.000Z";
    expect(answer.body).toEqual({
      nonce,
      action: "add",
      walletAddress: wallet.address,
      chainId: 11155111,
      tokenAddress: fau,
      destinationId,
      expiresAt,
      typedData: {
        domain: { name: "Payee Destination", version: "1", chainId: 11155111 },
        types: {
          PayeeDestination: [
            { name: "action", type: "string" },
            { name: "walletAddress", type: "address" },
            { name: "chainId", type: "uint256" },
            { name: "tokenAddress", type: "address" },
            { name: "nonce", type: "string" },
            { name: "expiresAt", type: "string" },
          ],
        },
        primaryType: "PayeeDestination",
        message: {
          action: "add",
          walletAddress: wallet.address,
          chainId: 11155111,
          tokenAddress: fau,
          nonce,
          expiresAt,
        },
      },
    });
  });

  it("refuses a chain the service does not support and a token it does not know there", async () => {
    const wallet = newWallet().address;
    const chain = await server.call("GET", signingDataQuery(wallet, { chainId: "56" }), asBrowser);
    expect(problemErrors(chain, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/chainId", message: "names chain 56, which the service does not support" },
    ]);
    const token = await server.call("GET", signingDataQuery(wallet, { chainId: "8453" }), asBrowser);
    expect(problemErrors(token, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/tokenAddress",
        message: "is not a token the service knows on base (see GET /v2/currencies?network=base)",
      },
    ]);
  });

  it("takes a client ID with its Origin only: an API key is refused with 401", async () => {
    const path = signingDataQuery(newWallet().address);
    const withKey = await server.call("GET", path);
    expect(problemErrors(withKey, "/problems/unauthorized", 401)).toEqual([]);
    expect(withKey.body.detail).toBe(
      "Send a client ID in x-client-id together with Origin; this operation does not accept API keys.",
    );
    const foreignOrigin = await server.call("GET", path, {
      ...asBrowser,
      headers: { origin: "https://elsewhere.example.com" },
    });
    problemErrors(foreignOrigin, "/problems/origin-not-allowed", 403);
  });
});

describe("createPayeeDestination (POST /v2/payee-destination)", () => {
  it("registers the destination its wallet signed for, active", async () => {
    const wallet = newWallet();
    const { nonce, signature, destinationId } = await signPayeeDestination(server, wallet, "add", fauSepolia);
    const answer = await register({ nonce, signature });
    expect(answer.status).toBe(201);
    expect(schemaErrors("PayeeDestination", answer.body)).toBe("");
    expect(answer.body).toEqual({
      id: `sepolia:${wallet.address}:${fau}`,
      destinationId,
      walletAddress: wallet.address,
      chainId: 11155111,
      network: "sepolia",
      tokenAddress: fau,
      paymentCurrency: "FAU-sepolia",
      humanReadableInteropAddress: destinationId.slice(0, destinationId.lastIndexOf(":")),
      binaryInteropAddress: `0x0001000003aa36a714${wallet.address.slice(2).toLowerCase()}`,
      active: true,
      createdAt: startInstant,
      deactivatedAt: null,
    });
  });

  it("refuses a signature by another wallet, naming /body/signature, and keeps the nonce usable", async () => {
    const wallet = newWallet();
    const stranger = newWallet();
    const ownSession = await signPayeeDestination(server, wallet, "add", fauSepolia);
    const forged = await signPayeeDestination(server, stranger, "add", fauSepolia, wallet.address);
    const answer = await register({ nonce: forged.nonce, signature: forged.signature });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/signature",
        message: `is not the EIP-712 signature of ${wallet.address} over the signing data of this nonce`,
      },
    ]);
    // Nothing was registered, and the refused session's nonce still takes the wallet's own signature.
    const active = await server.call(
      "GET",
      `/v2/payee-destination?walletAddress=${wallet.address}`,
      asBrowser,
    );
    expect(active.body).toBeNull();
    const mixed = await register({ nonce: ownSession.nonce, signature: forged.signature });
    expect(problemErrors(mixed, "/problems/validation-failed", 400)[0]?.path).toBe("/body/signature");
    expect((await register({ nonce: ownSession.nonce, signature: ownSession.signature })).status).toBe(201);
  });

  it("refuses a used, unknown, expired or deactivate nonce, naming /body/nonce", async () => {
    const wallet = newWallet();
    const session = await signPayeeDestination(server, wallet, "add", fauSepolia);
    expect((await register(session)).status).toBe(201);
    const nonceErrors = async (body: unknown) =>
      problemErrors(await register(body), "/problems/validation-failed", 400).map((issue) => issue.message);

    expect(await nonceErrors({ nonce: session.nonce, signature: session.signature })).toEqual([
      `was already used at ${startInstant}; get new signing data`,
    ]);
    expect(await nonceErrors({ nonce: "01KP0J4H80AAAAAAAAAAAAAAAA", signature: session.signature })).toEqual([
      "is not a nonce of GET /v2/payee-destination/signing-data for this account",
    ]);
    const deactivate = await signPayeeDestination(server, wallet, "deactivate", fauSepolia);
    expect(await nonceErrors({ nonce: deactivate.nonce, signature: deactivate.signature })).toEqual([
      "was issued for the action deactivate; get signing data with action=add",
    ]);
    const late = await signPayeeDestination(server, newWallet(), "add", fauSepolia);
    server.clock.set(new Date(Date.parse(startInstant) + 10 * 60 * 1000));
    try {
      expect(await nonceErrors({ nonce: late.nonce, signature: late.signature })).toEqual([
        "expired at 2026-04-12T10:10:00.000Z; get new signing data",
      ]);
    } finally {
      server.clock.set(new Date(startInstant));
    }
  });

  it("refuses a nonce issued to another account, as unknown", async () => {
    const otherClient = await server.call("POST", "/v2/client-ids", {
      ...asOtherAccount,
      body: { label: "Other shop", allowedDomains: [browserOrigin] },
    });
    const session = await signPayeeDestination(server, newWallet(), "add", fauSepolia);
    const answer = await server.call("POST", "/v2/payee-destination", {
      auth: "none",
      headers: { "x-client-id": otherClient.body.clientId, origin: browserOrigin },
      body: { nonce: session.nonce, signature: session.signature },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)[0]?.path).toBe("/body/nonce");
  });
});

describe("getActivePayeeDestination (GET /v2/payee-destination)", () => {
  it("answers null for a wallet without one, then the one registered last", async () => {
    const wallet = newWallet();
    const read = () => server.call("GET", `/v2/payee-destination?walletAddress=${wallet.address}`, asBrowser);
    const before = await read();
    expect([before.status, before.text]).toEqual([200, "null"]);
    const onSepolia = await registerPayeeDestination(server, wallet, fauSepolia);
    expect((await read()).body).toEqual(onSepolia);
    // A second destination of the same wallet replaces the first, which stays readable, inactive.
    const onBase = await registerPayeeDestination(server, wallet, usdcBase);
    expect((await read()).body).toEqual(onBase);
    const first = await server.call("GET", destinationPath(onSepolia.destinationId), asBrowser);
    expect(first.body).toMatchObject({ active: false, deactivatedAt: startInstant });
  });
});

describe("getPayeeDestination (GET /v2/payee-destination/{destinationId})", () => {
  it("finds a destination by its destinationId or by its id, and no other account's", async () => {
    const registered = await registerPayeeDestination(server, newWallet());
    for (const key of [registered.destinationId, registered.id, registered.destinationId.toLowerCase()]) {
      const answer = await server.call("GET", destinationPath(key), asBrowser);
      expect([answer.status, answer.body]).toEqual([200, registered]);
    }
    const otherClient = await server.call("POST", "/v2/client-ids", {
      ...asOtherAccount,
      body: { label: "Other shop", allowedDomains: [browserOrigin] },
    });
    const fromOther = await server.call("GET", destinationPath(registered.id), {
      auth: "none",
      headers: { "x-client-id": otherClient.body.clientId, origin: browserOrigin },
    });
    problemErrors(fromOther, "/problems/not-found", 404);
  });

  it("answers 404 for a destination never registered, or named with another checksum", async () => {
    const wallet = newWallet().address;
    const unknown = await server.call("GET", destinationPath(`sepolia:${wallet}:${fau}`), asBrowser);
    problemErrors(unknown, "/problems/not-found", 404);
    const registered = await registerPayeeDestination(server, newWallet());
    const wrongChecksum = registered.destinationId.replace(/#[0-9A-F]{8}:/, "#00000000:");
    problemErrors(
      await server.call("GET", destinationPath(wrongChecksum), asBrowser),
      "/problems/not-found",
      404,
    );
  });
});

describe("deactivatePayeeDestination (DELETE /v2/payee-destination/{destinationId})", () => {
  const deactivate = (key: string, body: unknown) =>
    server.call("DELETE", destinationPath(key), { ...asBrowser, body });

  it("deactivates with the wallet's signature; secure payments to it are then refused", async () => {
    const wallet = newWallet();
    const registered = await registerPayeeDestination(server, wallet);
    const paid = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ destinationId: registered.destinationId, amount: "10" }] },
    });
    expect(paid.status).toBe(201);

    const later = new Date(Date.parse(startInstant) + 60_000);
    server.clock.set(later);
    try {
      const session = await signPayeeDestination(server, wallet, "deactivate", fauSepolia);
      const answer = await deactivate(registered.id, { nonce: session.nonce, signature: session.signature });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ...registered, active: false, deactivatedAt: later.toISOString() });
      const refused = await server.call("POST", "/v2/secure-payments", {
        body: { requests: [{ destinationId: registered.destinationId, amount: "10" }] },
      });
      expect(problemErrors(refused, "/problems/validation-failed", 400)).toEqual([
        {
          path: "/body/requests/0/destinationId",
          message: `was deactivated at ${later.toISOString()}; the payee must register it again before it can be paid`,
        },
      ]);
      const again = await signPayeeDestination(server, wallet, "deactivate", fauSepolia);
      problemErrors(await deactivate(registered.id, again), "/problems/invalid-state", 400);
      // A new add signature makes it active again, created when it first was.
      const reactivated = await registerPayeeDestination(server, wallet);
      expect(reactivated).toEqual({ ...registered, active: true, deactivatedAt: null });
    } finally {
      server.clock.set(new Date(startInstant));
    }
  });

  it("refuses another wallet's signature, and a nonce issued for another destination", async () => {
    const wallet = newWallet();
    const registered = await registerPayeeDestination(server, wallet);
    const forged = await signPayeeDestination(server, newWallet(), "deactivate", fauSepolia, wallet.address);
    const answer = await deactivate(registered.destinationId, forged);
    expect(problemErrors(answer, "/problems/validation-failed", 400)[0]?.path).toBe("/body/signature");
    const otherWallet = newWallet();
    await registerPayeeDestination(server, otherWallet);
    const elsewhere = await signPayeeDestination(server, otherWallet, "deactivate", fauSepolia);
    const mismatch = await deactivate(registered.destinationId, elsewhere);
    expect(problemErrors(mismatch, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/nonce",
        message: `was issued for the destination ${elsewhere.destinationId}, not ${registered.destinationId}`,
      },
    ]);
    const still = await server.call("GET", destinationPath(registered.id), asBrowser);
    expect(still.body.active).toBe(true);
  });

  it("answers 404 for a destination the account does not have", async () => {
    const wallet = newWallet();
    const session = await signPayeeDestination(server, wallet, "deactivate", fauSepolia);
    const answer = await deactivate(session.destinationId, session);
    problemErrors(answer, "/problems/not-found", 404);
  });
});

describe("createSecurePayment (POST /v2/secure-payments) to a payee destination", () => {
  it("pays the destination's wallet in its token: the pay calldata names both", async () => {
    const wallet = newWallet();
    const registered = await registerPayeeDestination(server, wallet);
    const created = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ destinationId: registered.destinationId, amount: "10" }] },
    });
    expect(created.status).toBe(201);
    const { token, requestIds } = created.body;
    const request = await server.server.store.requests.get(requestIds[0]);
    expect(request).toMatchObject({
      payee: wallet.address,
      network: "sepolia",
      invoiceCurrency: "FAU-sepolia",
      paymentCurrency: "FAU-sepolia",
      expectedAmount: "10000000000000000000",
    });
    const details = await server.call("GET", `/v2/secure-payments/${token}`);
    expect(details.body.destination).toEqual({
      destinationId: registered.destinationId,
      payeeAddress: registered.humanReadableInteropAddress,
      tokenAddress: fau,
      walletAddress: wallet.address,
      network: "sepolia",
    });
    const calldata = await server.call("GET", `/v2/secure-payments/${token}/pay?wallet=${payer}`);
    expect(calldata.status).toBe(200);
    const payment = calldata.body.transactions[calldata.body.metadata.paymentTransactionIndex];
    expect(payment.to).toBe(getOfficialContracts("sepolia")?.erc20FeeProxy);
    const { functionName, args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: payment.data });
    expect(functionName).toBe("transferFromWithReferenceAndFee");
    expect([args[0], args[1], args[2], args[3]]).toEqual([
      fau,
      wallet.address,
      10_000_000_000_000_000_000n,
      request?.paymentReference,
    ]);
  });

  it("refuses a destination the account never registered, naming the item", async () => {
    const destinationId = formatPayeeDestinationId({
      walletAddress: newWallet().address,
      chainId: 11155111,
      tokenAddress: fau,
    });
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ destinationId, amount: "10" }] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/0/destinationId",
        message:
          "is not a payee destination of your account: the payee registers it first (GET /v2/payee-destination/signing-data, then POST /v2/payee-destination)",
      },
    ]);
  });
});
