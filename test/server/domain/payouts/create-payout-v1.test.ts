import { decodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payee, problemErrors, startTestServer, type TestServer } from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const native = {
  payee,
  amount: "0.05",
  invoiceCurrency: "ETH-sepolia-sepolia",
  paymentCurrency: "ETH-sepolia-sepolia",
};

describe("createPayoutV1 (POST /v1/pay)", () => {
  it("creates a request and answers its calldata, naming it requestId and requestID", async () => {
    const answer = await server.call("POST", "/v1/pay", { body: native });
    expect(answer.status).toBe(201);
    const { requestId, requestID, paymentReference, transactions, metadata } = answer.body;
    expect(requestID).toBe(requestId);
    expect(transactions).toHaveLength(1);
    expect(transactions[0].to).toBe("0xe11BF2fDA23bF0A98365e1A4c04A87C9339e8687");
    expect(transactions[0].value).toEqual({ type: "BigNumber", hex: "0xb1a2bc2ec50000" });
    const abi = parseAbi([
      "function transferWithReferenceAndFee(address to, bytes paymentReference, uint256 feeAmount, address feeAddress)",
    ]);
    const { args } = decodeFunctionData({ abi, data: transactions[0].data });
    expect(args[1]).toBe(paymentReference);
    expect(metadata).toMatchObject({ stepsRequired: 1, needsApproval: false, paymentTransactionIndex: 0 });
    const v1 = await server.call("GET", `/v1/request/${paymentReference}`);
    expect(v1.body).toMatchObject({ requestId, hasBeenPaid: false, requestAmount: "0.05" });
  });

  it("takes no recurrence or fee, and requires the API key", async () => {
    const recurring = await server.call("POST", "/v1/pay", {
      body: { ...native, feePercentage: "1" },
      headers: {},
    });
    // Unknown members are ignored, as the service does: the payout is made without a fee.
    expect(recurring.status).toBe(201);
    expect(recurring.body.metadata.platformFee).toBeUndefined();
    const byClientId = await server.call("POST", "/v1/pay", { body: native, auth: "clientId" });
    expect(byClientId.status).toBe(401);
    const { payee: _, ...withoutPayee } = native;
    const invalid = await server.call("POST", "/v1/pay", { body: withoutPayee });
    expect(problemErrors(invalid, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/payee",
    ]);
  });
});
