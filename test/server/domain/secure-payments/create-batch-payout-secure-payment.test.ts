import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  createSecurePayment,
  problemErrors,
  schemaErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const recipients = [
  "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF",
  "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function createPayoutLink(recipient: string, currency = "USDC-base", amount = "10") {
  const network = currency.split("-").slice(1).join("-");
  const answer = await server.call("POST", "/v2/secure-payments/payouts", {
    body: { recipient, network, currency, amount },
  });
  expect(answer.status).toBe(201);
  return answer.body as { token: string; requestIds: string[] };
}

describe("createBatchPayoutSecurePayment (POST /v2/secure-payments/batch-payouts)", () => {
  it("joins pending payout links into one link over their requests, invalidating them", async () => {
    const first = await createPayoutLink(recipients[0] as string, "USDC-base", "10");
    const second = await createPayoutLink(recipients[1] as string, "USDC-base", "2.5");
    const answer = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [second.token, first.token], redirectLabel: "Back to payroll" },
    });
    expect(answer.status).toBe(201);
    expect(schemaErrors("SecurePayment", answer.body)).toBe("");
    const { token, requestIds } = answer.body;
    expect(requestIds).toEqual([...second.requestIds, ...first.requestIds]);
    expect(await server.server.store.securePayments.get(token)).toMatchObject({
      kind: "payout",
      status: "pending",
      network: "base",
      redirectLabel: "Back to payroll",
    });

    // The batch link answers the token check as a batch; the joined ones are ended.
    const details = await server.call("GET", `/v2/secure-payments/${token}`);
    expect(details.body).toMatchObject({
      paymentType: "batch",
      payees: [recipients[1], recipients[0]],
      amounts: ["2.5", "10"],
    });
    for (const joined of [first, second]) {
      const check = await server.call("GET", `/v2/secure-payments/${joined.token}`);
      expect(check.status).toBe(403);
      expect(check.body.detail).toContain("was invalidated");
    }
    // Each request now belongs to the batch link.
    const found = await server.call("GET", `/v2/secure-payments?requestId=${first.requestIds[0]}`);
    expect(found.body).toMatchObject({ token, paymentType: "batch", requestIds });
  });

  it("completes the batch link once every joined payout is paid", async () => {
    const links = [
      await createPayoutLink(recipients[0] as string),
      await createPayoutLink(recipients[1] as string),
    ];
    const batch = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: links.map((link) => link.token) },
    });
    const [first, second] = batch.body.requestIds as string[];
    await server.call("POST", `/sandbox/requests/${first}/payments`, { body: { outcome: "paid" } });
    expect((await server.server.store.securePayments.get(batch.body.token))?.status).toBe("pending");
    await server.call("POST", `/sandbox/requests/${second}/payments`, { body: { outcome: "paid" } });
    expect((await server.server.store.securePayments.get(batch.body.token))?.status).toBe("completed");
    const check = await server.call("GET", `/v2/secure-payments/${batch.body.token}`);
    expect(check.status).toBe(409);
    // The joined links stay invalidated: they were never paid as such.
    expect((await server.server.store.securePayments.get(links[0]?.token as string))?.status).toBe(
      "invalidated",
    );
  });

  it("names each token that cannot be joined, and changes nothing", async () => {
    const pending = await createPayoutLink(recipients[0] as string);
    const onSepolia = await createPayoutLink(recipients[0] as string, "FAU-sepolia");
    const incoming = await createSecurePayment(server);
    const unknown = "01KMB2Q7XW4F9C3N8R6T1V5H0J";
    const answer = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [pending.token, onSepolia.token, incoming.token, unknown, pending.token] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/tokens/1",
        message: "pays on sepolia, but /body/tokens/0 pays on base: a batch pays on one network",
      },
      {
        path: "/body/tokens/2",
        message: "is a link for incoming payments; only payout links can be joined",
      },
      { path: "/body/tokens/3", message: "is not a payout link of your account" },
      { path: "/body/tokens/4", message: "names the same link as /body/tokens/0" },
    ]);
    expect((await server.server.store.securePayments.get(pending.token))?.status).toBe("pending");
    expect((await server.server.store.securePayments.get(onSepolia.token))?.status).toBe("pending");
  });

  it("refuses links already joined, and the batch link itself", async () => {
    const links = [
      await createPayoutLink(recipients[0] as string),
      await createPayoutLink(recipients[1] as string),
    ];
    const batch = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: links.map((link) => link.token) },
    });
    expect(batch.status).toBe(201);
    const third = await createPayoutLink(recipients[0] as string);
    const again = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [links[0]?.token, batch.body.token, third.token] },
    });
    expect(problemErrors(again, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/tokens/0", message: "is invalidated; only pending payout links can be joined" },
      { path: "/body/tokens/1", message: "is already a batch link; join the single payout links instead" },
    ]);
  });

  it("takes another account's payout link for one that is not the caller's", async () => {
    const mine = await createPayoutLink(recipients[0] as string);
    const theirs = await server.call("POST", "/v2/secure-payments/payouts", {
      ...asOtherAccount,
      body: { recipient: recipients[1], network: "base", currency: "USDC-base", amount: "1" },
    });
    expect(theirs.status).toBe(201);
    const answer = await server.call("POST", "/v2/secure-payments/batch-payouts", {
      body: { tokens: [mine.token, theirs.body.token] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/tokens/1", message: "is not a payout link of your account" },
    ]);
    expect((await server.server.store.securePayments.get(theirs.body.token))?.status).toBe("pending");
  });
});
