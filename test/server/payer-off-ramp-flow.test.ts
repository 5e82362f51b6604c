import { decodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20FeeProxyAbi, getOfficialContracts } from "../../src/chain/index.ts";
import { createPayreqClient, type PayreqClient, unwrap } from "../../src/index.ts";
import { bankAccount, payerRegistration } from "./fixtures.ts";
import { apiKey, payee, payer, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

// The crypto-to-fiat onboarding the service's own invoicing app runs, with the typed client against
// an in-process reference server started as `npm start` starts it (default configuration).

let server: TestServer;
let client: PayreqClient;
beforeAll(async () => {
  server = await startTestServer();
  client = createPayreqClient({ baseUrl: server.url, apiKey });
});
afterAll(() => server.close());

const email = "erika.mustermann@example.com";
const path = { clientUserId: email };

describe("payer registration -> status -> agreement -> payment details -> off-ramp pay calldata", () => {
  it("runs as the invoicing app runs it, each step reading what the previous one wrote", async () => {
    // 1. The status before anything: 404, which the app reads as "compliance not started".
    const before = await client.GET("/v2/payer/{clientUserId}", { params: { path } });
    expect(before.response.status).toBe(404);

    // 2. Registration; the app then re-reads the status and shows the agreement.
    const registered = unwrap(
      await client.POST("/v2/payer", {
        body: { ...payerRegistration(email), email },
      }),
    );
    const pending = unwrap(await client.GET("/v2/payer/{clientUserId}", { params: { path } }));
    expect(pending).toEqual({
      userId: registered.userId,
      agreementStatus: "pending",
      kycStatus: "initiated",
      isCompliant: false,
      agreementUrl: registered.agreementUrl,
      kycUrl: registered.kycUrl,
    });
    expect((await fetch(pending.agreementUrl)).status).toBe(200);

    // 3. The agreement page reports acceptance; the app reports it and shows the KYC link.
    const agreed = await client.PATCH("/v2/payer/{clientUserId}", {
      params: { path },
      body: { agreementCompleted: true },
    });
    expect(agreed.response.status).toBe(200);
    expect(agreed.data).toEqual({ success: true });
    const kycNext = unwrap(await client.GET("/v2/payer/{clientUserId}", { params: { path } }));
    expect([kycNext.agreementStatus, kycNext.kycStatus, kycNext.isCompliant]).toEqual([
      "completed",
      "initiated",
      false,
    ]);

    // 4. The provider approves the identity (the sandbox control stands in for it).
    const decided = unwrap(
      await client.PATCH("/sandbox/payers/{clientUserId}", {
        params: { path },
        body: { kycStatus: "approved" },
      }),
    );
    expect(decided.isCompliant).toBe(true);

    // 5. The payee's bank account, stored for this payer; the app keeps payment_detail.id.
    const created = await client.POST("/v2/payer/{clientUserId}/payment-details", {
      params: { path },
      body: bankAccount,
    });
    expect(created.response.status).toBe(201);
    const paymentDetailsId = unwrap(created).payment_detail.id;
    const listed = unwrap(
      await client.GET("/v2/payer/{clientUserId}/payment-details", {
        params: { path, query: { paymentDetailsId } },
      }),
    );
    expect(listed.paymentDetails.map((detail) => [detail.id, detail.status])).toEqual([
      [paymentDetailsId, "approved"],
    ]);

    // 6. An invoice to pay off-ramp, and its calldata for this payer and bank account.
    const link = unwrap(
      await client.POST("/v2/secure-payments", { body: { requests: [usdcOnBase("125.00")] } }),
    );
    const requestId = link.requestIds[0] as string;
    const pay = unwrap(
      await client.GET("/v2/request/{requestId}/pay", {
        params: { path: { requestId }, query: { wallet: payer, clientUserId: email, paymentDetailsId } },
      }),
    );
    if (!("transactions" in pay)) throw new Error("expected same-chain calldata");
    expect(pay.metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
    });
    const payment = pay.transactions[1];
    expect(payment?.to).toBe(getOfficialContracts("base")?.erc20FeeProxy);
    const reference = (await server.call("GET", `/sandbox/requests/${requestId}`)).body.paymentReference;
    const { args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: payment?.data as `0x${string}` });
    expect([args[1], args[2], args[3]]).toEqual([payee, 125_000_000n, reference]);

    // Another payer's bank account, or an unknown one, is not payable with this payer.
    const wrong = await client.GET("/v2/request/{requestId}/pay", {
      params: { path: { requestId }, query: { clientUserId: email, paymentDetailsId: "pd_unknown" } },
    });
    expect(wrong.response.status).toBe(404);
  });
});
