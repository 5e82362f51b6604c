import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  createSecurePayment,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

const signedTransaction = {
  raw_data_hex: "0a02a1b22208c4e3f0a1b2c3d4e5",
  signature: [`${"3f".repeat(64)}1c`],
  txID: "9d4c1e7b2a3f5e6d8c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d",
  raw_data: { contract: [{ type: "TriggerSmartContract" }], fee_limit: 100000000 },
};

const broadcast = (token: string, body: unknown = signedTransaction, options = {}) =>
  server.call("POST", `/v2/secure-payments/${token}/tron/broadcast`, { body, ...options });

describe("broadcastSecurePaymentTronTransaction (POST /v2/secure-payments/{token}/tron/broadcast)", () => {
  it("refuses a well-formed transaction with 400 naming the token: the link pays on an EVM network", async () => {
    const { token } = await createSecurePayment(server);
    const answer = await broadcast(token);
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/path/token",
        message:
          "is a link paying on base, an EVM network: payreq serves EVM networks only, so no secure payment here pays on Tron and there is no Tron transaction to broadcast; pay it with the transactions of GET /v2/secure-payments/{token}/pay",
      },
    ]);
    expect(answer.body.detail).toBe("1 field is invalid: /path/token.");
    // Nothing was recorded on the link: it is still payable.
    expect((await server.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
  });

  it("answers 404 for an unknown token, and for another account's link", async () => {
    problemErrors(await broadcast("01KM9S346Q3D25VT4F5V37E3S3"), "/problems/not-found", 404);
    const { token } = await createSecurePayment(server);
    const answer = await broadcast(token, signedTransaction, asOtherAccount);
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body.detail).toBe(`No secure payment has the token ${token}.`);
  });

  it("names the malformed field of a body before anything else", async () => {
    const { token } = await createSecurePayment(server);
    const errors = problemErrors(
      await broadcast(token, { ...signedTransaction, signature: [] }),
      "/problems/validation-failed",
      400,
    );
    expect(errors.map((error) => error.path)).toEqual(["/body/signature"]);
  });
});
