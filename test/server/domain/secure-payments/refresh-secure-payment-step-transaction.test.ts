import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSecurePayment,
  payee,
  problemErrors,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const step = (action: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  step: {
    id: "0x4f2b9c1d",
    type: "lifi",
    tool: "across",
    action: { toChainId: 8453, toAddress: payee, ...action },
    ...extra,
  },
});
const refresh = (token: string, body: unknown) =>
  server.call("POST", `/v2/secure-payments/${token}/refresh-step-transaction`, { body });

describe("refreshSecurePaymentStepTransaction (POST /v2/secure-payments/{token}/refresh-step-transaction)", () => {
  it("answers a step to the link's network as a route that is not available: the sandbox quotes none", async () => {
    const { token } = await createSecurePayment(server);
    expect(problemErrors(await refresh(token, step()), "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/step/id",
        message:
          "names a route step of across that is not available: the sandbox runs no bridge and quotes no route steps; pay the link on base",
      },
    ]);
  });

  it("names a step arriving on another chain, and a step without its tool or address", async () => {
    const { token } = await createSecurePayment(server);
    expect(
      problemErrors(await refresh(token, step({ toChainId: 10 })), "/problems/validation-failed", 400),
    ).toEqual([
      {
        path: "/body/step/action/toChainId",
        message: "is 10, but the secure payment is paid on base (chain 8453): the step must arrive there",
      },
    ]);
    const incomplete = await refresh(token, {
      step: { id: "s", type: "lifi", action: { toChainId: 8453, toAddress: "0x1234" } },
    });
    expect(
      problemErrors(incomplete, "/problems/validation-failed", 400)
        .map((issue) => issue.path)
        .sort(),
    ).toEqual(["/body/step/action/toAddress", "/body/step/tool"]);
  });

  it("checks the link first, as the token check does: 423 in progress, 409 completed, 404 unknown", async () => {
    const { token, requestIds } = await createSecurePayment(server);
    await server.call("POST", `/v2/secure-payments/${token}/intent`, {
      body: { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" },
    });
    problemErrors(await refresh(token, step()), "/problems/secure-payment-in-progress", 423);
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    });
    problemErrors(await refresh(token, step()), "/problems/secure-payment-completed", 409);
    problemErrors(await refresh("01KX45HY43KWJRP1XPA7Z3DJ8F", step()), "/problems/not-found", 404);
  });
});
