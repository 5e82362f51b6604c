import { getAddress, type Hex, keccak256 } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { erc20ProxyEvents, ethereumProxyEvents } from "../../chain/support/proxy-events.ts";
import { payee, problemErrors, startTestServer, type TestServer } from "../helpers.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { deploySepoliaContracts, type SepoliaDeployment } from "./support/sepolia-deployment.ts";
import { mirrorPayerBalances } from "./support/wallet-book.ts";

// The server runs with its default configuration; the EVM holds the contracts and FAU at the
// addresses of its tables, so the calldata a token answers is sent unchanged.
let server: TestServer;
let deployment: SepoliaDeployment;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  deployment = await deploySepoliaContracts();
  await mirrorPayerBalances(server, deployment);
});

const alice = getAddress(payee);
const bob = getAddress("0x00000000000000000000000000000000000b0b0b");

async function referenceOf(requestId: string): Promise<Hex> {
  return (await server.call("GET", `/sandbox/requests/${requestId}`)).body.paymentReference;
}

/** The payer's wallet, as the hosted page passes it. */
const withWallet = () => `?wallet=${deployment.payer.address}`;

describe("getSecurePaymentCalldata, executed in an EVM", () => {
  it("a single FAU link: the approval and the proxy call pay the request under its reference", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf } = deployment;
    const link = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [{ payee, amount: "7.5", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" }],
      },
    });
    const [requestId] = link.body.requestIds as string[];
    const pay = await server.call("GET", `/v2/secure-payments/${link.body.token}/pay${withWallet()}`);
    expect(pay.status).toBe(200);
    expect(pay.body.metadata).toMatchObject({ needsApproval: true, paymentTransactionIndex: 1 });

    const receipts = await sendServerTransactions(chain, payer, pay.body.transactions);

    const reference = keccak256(await referenceOf(requestId as string));
    expect(erc20ProxyEvents(receipts.at(-1)?.logs ?? [], contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: alice,
        amount: 7_500_000_000_000_000_000n,
        paymentReference: reference,
        feeAmount: 0n,
        feeAddress: "0x0000000000000000000000000000000000000000",
        referenceTopic: reference,
      },
    ]);
    expect(await fauBalanceOf(alice)).toBe(7_500_000_000_000_000_000n);
  });

  it("a batch link of FAU and ETH: one batchPayments call pays both, then the paid link answers 409", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf } = deployment;
    const link = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          { payee, amount: "12.345678", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
          {
            payee: bob,
            amount: "0.015",
            invoiceCurrency: "ETH-sepolia-sepolia",
            paymentCurrency: "ETH-sepolia-sepolia",
          },
        ],
      },
    });
    const token = link.body.token as string;
    const [fauRequest, ethRequest] = link.body.requestIds as string[];
    const pay = await server.call("GET", `/v2/secure-payments/${token}/pay${withWallet()}`);
    expect(pay.status).toBe(200);
    expect(pay.body.ERC20ApprovalTransactions.map((tx: { to: string }) => tx.to)).toEqual([fau.address]);
    expect(pay.body.batchPaymentTransaction).toMatchObject({
      to: contracts.batchConversionPayments,
      value: { type: "BigNumber", hex: "0x354a6ba7a18000" },
    });
    expect(pay.body.metadata).toEqual({ hasEnoughBalance: true, hasEnoughGas: true });
    const payerWei = await chain.balanceOf(payer.address);

    const receipts = await sendServerTransactions(chain, payer, [
      ...pay.body.ERC20ApprovalTransactions,
      pay.body.batchPaymentTransaction,
    ]);

    const logs = receipts.at(-1)?.logs ?? [];
    const fauReference = keccak256(await referenceOf(fauRequest as string));
    const ethReference = keccak256(await referenceOf(ethRequest as string));
    expect(
      erc20ProxyEvents(logs, contracts.erc20FeeProxy).map((event) => [
        event.to,
        event.amount,
        event.paymentReference,
      ]),
    ).toEqual([[alice, 12_345_678_000_000_000_000n, fauReference]]);
    expect(
      ethereumProxyEvents(logs, contracts.ethereumFeeProxy).map((event) => [
        event.to,
        event.amount,
        event.paymentReference,
      ]),
    ).toEqual([[bob, 15_000_000_000_000_000n, ethReference]]);
    expect(await fauBalanceOf(alice)).toBe(12_345_678_000_000_000_000n);
    expect(await chain.balanceOf(bob)).toBe(15_000_000_000_000_000n);
    const gas = receipts.reduce((sum, receipt) => sum + receipt.gasCost, 0n);
    expect(await chain.balanceOf(payer.address)).toBe(payerWei - 15_000_000_000_000_000n - gas);

    const txHash = receipts.at(-1)?.hash;
    for (const requestId of [fauRequest, ethRequest]) {
      const recorded = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
        body: { outcome: "paid", txHash },
      });
      expect(recorded.status).toBe(201);
    }
    problemErrors(
      await server.call("GET", `/v2/secure-payments/${token}/pay${withWallet()}`),
      "/problems/secure-payment-completed",
      409,
    );
  });
});
