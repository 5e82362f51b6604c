import { createSiweMessage } from "viem/siwe";
import { afterEach, describe, expect, it } from "vitest";
import { problemErrors, startTestServer, type TestServer } from "../../helpers.ts";
import { otherWalletKey, sessionCookieOf, signChallenge, walletKey, withSession } from "./sign-in.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verify = (body: unknown) =>
  (server as TestServer).call("POST", "/v1/auth/wallet/verify", { auth: "none", body });

describe("createWalletChallenge", () => {
  it("issues an EIP-4361 message for the wallet, on the server's origin, for 5 minutes", async () => {
    server = await startTestServer();
    const { account, challengeId, nonce, message, expiresAt } = await signChallenge(server, walletKey);
    expect(challengeId).toMatch(/^wch_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(nonce).toMatch(/^[A-Za-z0-9]{96}$/);
    expect(expiresAt).toBe("2026-04-12T10:05:00.000Z");
    const origin = new URL(server.url);
    expect(message).toBe(
      createSiweMessage({
        address: account.address,
        chainId: 8453,
        domain: origin.host,
        uri: origin.origin,
        version: "1",
        nonce,
        statement: "Sign in to the payreq sandbox.",
        issuedAt: new Date("2026-04-12T10:00:00.000Z"),
        expirationTime: new Date("2026-04-12T10:05:00.000Z"),
      }),
    );
  });

  it("refuses a Tron address, and any other that is not an EVM address, with 400 naming /body/address", async () => {
    server = await startTestServer();
    for (const [address, message] of [
      [
        "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
        "is a Tron address; this server signs in EVM wallets only (0x and 40 hex digits)",
      ],
      ["0x1234", "must be an EVM address: 0x and 40 hex digits"],
    ]) {
      const answer = await server.call("POST", "/v1/auth/wallet/challenge", {
        auth: "none",
        body: { address },
      });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body/address", message },
      ]);
    }
  });
});

describe("verifyWalletChallenge", () => {
  it("signs a wallet in with its real signature: a new account at the first sign-in, the same one after", async () => {
    server = await startTestServer();
    const first = await signChallenge(server, walletKey);
    const answer = await verify({
      challengeId: first.challengeId,
      nonce: first.nonce,
      message: first.message,
      signature: first.signature,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      userId: expect.stringMatching(/^usr_/),
      accountId: answer.body.userId.replace("usr_", "acct_"),
      email: null,
      walletAddress: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      expiresAt: "2026-04-13T10:00:00.000Z",
    });
    expect(answer.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax$/);

    const second = await signChallenge(server, walletKey);
    const again = await verify({ ...second, signature: second.signature.slice(2) });
    expect([again.status, again.body.accountId]).toEqual([200, answer.body.accountId]);
  });

  it("refuses a used challenge, another wallet's signature, an expired challenge and an unknown one with 401", async () => {
    server = await startTestServer();
    const used = await signChallenge(server, walletKey);
    const body = {
      challengeId: used.challengeId,
      nonce: used.nonce,
      message: used.message,
      signature: used.signature,
    };
    expect((await verify(body)).status).toBe(200);
    const reused = await verify(body);
    expect([reused.status, reused.body.detail]).toEqual([
      401,
      "The challenge was already used at 2026-04-12T10:00:00.000Z; ask for a new one.",
    ]);
    expect(reused.headers.getSetCookie()).toEqual([]);

    const wrong = await signChallenge(server, walletKey);
    const forged = await signChallenge(server, otherWalletKey);
    const wrongSigner = await verify({
      challengeId: wrong.challengeId,
      nonce: wrong.nonce,
      message: wrong.message,
      signature: await forged.account.signMessage({ message: wrong.message }),
    });
    expect([wrongSigner.status, wrongSigner.body.detail]).toEqual([
      401,
      "The signature is not the challenge wallet's signature of its message.",
    ]);

    server.clock.set("2026-04-12T10:05:00.000Z");
    const late = await verify({
      challengeId: wrong.challengeId,
      nonce: wrong.nonce,
      message: wrong.message,
      signature: wrong.signature,
    });
    expect([late.status, late.body.detail]).toEqual([
      401,
      "The challenge expired at 2026-04-12T10:05:00.000Z; ask for a new one.",
    ]);

    const unknown = await verify({ ...body, challengeId: "wch_01KP0000000000000000000000" });
    expect(unknown.status).toBe(401);
  });

  it("refuses a nonce or message other than the challenge's with 400 naming the field", async () => {
    server = await startTestServer();
    const { challengeId, nonce, message, signature } = await signChallenge(server, walletKey);
    const otherNonce = await verify({ challengeId, nonce: `${nonce}0`, message, signature });
    expect(problemErrors(otherNonce, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/nonce", message: "is not the challenge's nonce" },
    ]);
    const otherMessage = await verify({ challengeId, nonce, message: `${message}\n`, signature });
    expect(problemErrors(otherMessage, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/message", message: "is not the challenge's message, exactly as it was issued" },
    ]);
    // Neither used the challenge up.
    const signedIn = await verify({ challengeId, nonce, message, signature });
    expect(signedIn.status).toBe(200);
    const out = await server.call("POST", "/v1/auth/logout", withSession(sessionCookieOf(signedIn)));
    expect(out.status).toBe(200);
  });
});
