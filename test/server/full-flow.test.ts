import { decodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOfficialContracts } from "../../src/chain/index.ts";
import { payee, payer, problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

const abi = parseAbi([
  "function approve(address spender, uint256 amount)",
  "function transferFromWithReferenceAndFee(address token, address to, uint256 amount, bytes paymentReference, uint256 feeAmount, address feeAddress)",
]);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("a secure payment from creation to completion", () => {
  it("creates, checks, builds the calldata, gets paid in the sandbox, then answers 409", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase("125.00")], reference: "ORDER-2026-0412" },
    });
    expect(created.status).toBe(201);
    const { token, requestIds } = created.body as { token: string; requestIds: string[] };
    const requestId = requestIds[0] as string;

    const check = await server.call("GET", `/v2/secure-payments/${token}`, { auth: "clientId" });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ paymentType: "single", status: "pending", amount: "125", payee });

    const state = await server.call("GET", `/sandbox/requests/${requestId}`);
    const pay = await server.call("GET", `/v2/request/${requestId}/pay?wallet=${payer}`, {
      auth: "clientId",
    });
    expect(pay.status).toBe(200);
    expect(pay.body.metadata.stepsRequired).toBe(2);
    const payment = pay.body.transactions[1];
    expect(payment.to).toBe(getOfficialContracts("base")?.erc20FeeProxy);
    const args = decodeFunctionData({ abi, data: payment.data }).args;
    expect(args[2]).toBe(125_000_000n);
    expect(args[3]).toBe(state.body.paymentReference);

    const paid = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    });
    expect(paid.status).toBe(201);
    expect(paid.body.securePayment.status).toBe("completed");

    const after = await server.call("GET", `/v2/secure-payments/${token}`, { auth: "clientId" });
    problemErrors(after, "/problems/secure-payment-completed", 409);
  });
});
