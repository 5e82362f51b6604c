import { getAddress, type Hex, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { erc20ProxyEvents, ethereumProxyEvents } from "../../chain/support/proxy-events.ts";
import { feeAddress, payee, problemErrors } from "../helpers.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { useSepoliaServer } from "./support/sepolia-server.ts";

const sepolia = useSepoliaServer();

const alice = getAddress(payee);
const bob = getAddress("0x00000000000000000000000000000000000b0b0b");
const carol = getAddress("0x00000000000000000000000000000000000ca201");
const feeRecipient = getAddress(feeAddress);
const units = (whole: bigint, exponent: bigint) => whole * 10n ** exponent;

interface StoredRequest {
  requestId: string;
  payee: string;
  paymentCurrency: string;
  expectedAmount: string;
  paymentReference: Hex;
}

async function readStoredRequest(requestId: string): Promise<StoredRequest> {
  const answer = await sepolia.server.call("GET", `/sandbox/requests/${requestId}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/**
 * The requests a batch payout created: the batch answer carries only transactions, so their ids
 * come from the server's event outbox, their references from the sandbox API.
 */
async function requestsCreatedAfter(sequence: number): Promise<StoredRequest[]> {
  const events = await sepolia.server.server.store.listEvents(sequence);
  const created = events.filter((event) => event.type === "request.created");
  return Promise.all(created.map((event) => readStoredRequest(event.data.requestId as string)));
}

async function lastEventSequence(): Promise<number> {
  return (await sepolia.server.server.store.listEvents()).at(-1)?.sequence ?? 0;
}

describe("a batch payout's calldata, executed in an EVM through BatchConversionPayments", () => {
  it("mixed FAU + ETH with feePercentage 2.5: every payment and fee lands under its stored reference", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf, fauAllowance } = sepolia.deployment;
    const since = await lastEventSequence();
    const answer = await sepolia.server.call("POST", "/v2/payouts/batch", {
      body: {
        requests: [
          {
            payee: alice,
            amount: "12.345678",
            invoiceCurrency: "FAU-sepolia",
            paymentCurrency: "FAU-sepolia",
          },
          {
            payee: bob,
            amount: "0.015",
            invoiceCurrency: "ETH-sepolia-sepolia",
            paymentCurrency: "ETH-sepolia-sepolia",
          },
          { payee: carol, amount: "3.5", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
        ],
        payer: payer.address,
        feePercentage: "2.5",
        feeAddress,
      },
    });
    expect(answer.status).toBe(201);
    const requests = await requestsCreatedAfter(since);
    expect(
      requests.map((request) => [request.payee, request.paymentCurrency, request.expectedAmount]),
    ).toEqual([
      [alice, "FAU-sepolia", "12.345678"],
      [bob, "ETH-sepolia-sepolia", "0.015"],
      [carol, "FAU-sepolia", "3.5"],
    ]);
    const [aliceRef, bobRef, carolRef] = requests.map((request) => keccak256(request.paymentReference));
    // One approval of the batch contract for FAU, then one batchPayments call carrying the ETH.
    expect(Object.keys(answer.body).sort()).toEqual([
      "ERC20ApprovalTransactions",
      "batchPaymentTransaction",
      "metadata",
      "requests",
    ]);
    expect(answer.body.ERC20ApprovalTransactions.map((tx: { to: string }) => tx.to)).toEqual([fau.address]);
    expect(answer.body.batchPaymentTransaction.to).toBe(contracts.batchConversionPayments);
    expect(answer.body.batchPaymentTransaction.value).toEqual({ type: "BigNumber", hex: "0x369f7b256bf000" });
    const payerFau = await fauBalanceOf(payer.address);
    const payerWei = await chain.balanceOf(payer.address);

    const sent = await sendServerTransactions(chain, payer, [
      ...answer.body.ERC20ApprovalTransactions,
      answer.body.batchPaymentTransaction,
    ]);

    const batchLogs = sent.at(-1)?.logs ?? [];
    expect(erc20ProxyEvents(batchLogs, contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: alice,
        amount: units(12_345_678n, 12n),
        paymentReference: aliceRef,
        feeAmount: units(30_864_195n, 10n),
        feeAddress: feeRecipient,
        referenceTopic: aliceRef,
      },
      {
        tokenAddress: fau.address,
        to: carol,
        amount: units(35n, 17n),
        paymentReference: carolRef,
        feeAmount: units(875n, 14n),
        feeAddress: feeRecipient,
        referenceTopic: carolRef,
      },
    ]);
    expect(ethereumProxyEvents(batchLogs, contracts.ethereumFeeProxy)).toEqual([
      {
        to: bob,
        amount: units(15n, 15n),
        paymentReference: bobRef,
        feeAmount: units(375n, 12n),
        feeAddress: feeRecipient,
        referenceTopic: bobRef,
      },
    ]);

    // FAU: 15.845678 paid, 0.39614195 in fees, nothing left in the contract or approved.
    expect(await fauBalanceOf(alice)).toBe(units(12_345_678n, 12n));
    expect(await fauBalanceOf(carol)).toBe(units(35n, 17n));
    expect(await fauBalanceOf(feeRecipient)).toBe(units(39_614_195n, 10n));
    expect(await fauBalanceOf(payer.address)).toBe(payerFau - units(1_624_181_995n, 10n));
    expect(await fauBalanceOf(contracts.batchConversionPayments)).toBe(0n);
    expect(await fauAllowance(payer.address, contracts.batchConversionPayments)).toBe(0n);
    // ETH: 0.015 paid, 0.000375 fee, nothing left in the contract.
    expect(await chain.balanceOf(bob)).toBe(units(15n, 15n));
    expect(await chain.balanceOf(feeRecipient)).toBe(units(375n, 12n));
    const gas = sent.reduce((sum, tx) => sum + tx.gasCost, 0n);
    expect(await chain.balanceOf(payer.address)).toBe(payerWei - units(15_375n, 12n) - gas);
    expect(await chain.balanceOf(contracts.batchConversionPayments)).toBe(0n);
  });

  it("the requests of a secure payment, by requestIds and without a fee: paid on chain, then the link answers 409", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf } = sepolia.deployment;
    const created = await sepolia.server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          {
            payee: alice,
            amount: "7.000001",
            invoiceCurrency: "FAU-sepolia",
            paymentCurrency: "FAU-sepolia",
          },
          {
            payee: bob,
            amount: "0.0205",
            invoiceCurrency: "ETH-sepolia-sepolia",
            paymentCurrency: "ETH-sepolia-sepolia",
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { token, requestIds } = created.body as { token: string; requestIds: string[] };
    const [fauRequest, ethRequest] = await Promise.all(requestIds.map(readStoredRequest));
    const answer = await sepolia.server.call("POST", "/v2/payouts/batch", {
      body: { requestIds, payer: payer.address },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.batchPaymentTransaction.value).toEqual({ type: "BigNumber", hex: "0x48d4a431e54000" });

    const sent = await sendServerTransactions(chain, payer, [
      ...answer.body.ERC20ApprovalTransactions,
      answer.body.batchPaymentTransaction,
    ]);

    // Without a fee the server names the payer as the batch's fee address, never the zero address.
    const batchLogs = sent.at(-1)?.logs ?? [];
    expect(erc20ProxyEvents(batchLogs, contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: alice,
        amount: units(7_000_001n, 12n),
        paymentReference: keccak256(fauRequest?.paymentReference as Hex),
        feeAmount: 0n,
        feeAddress: payer.address,
        referenceTopic: keccak256(fauRequest?.paymentReference as Hex),
      },
    ]);
    expect(ethereumProxyEvents(batchLogs, contracts.ethereumFeeProxy)).toEqual([
      {
        to: bob,
        amount: units(205n, 14n),
        paymentReference: keccak256(ethRequest?.paymentReference as Hex),
        feeAmount: 0n,
        feeAddress: payer.address,
        referenceTopic: keccak256(ethRequest?.paymentReference as Hex),
      },
    ]);
    expect(await fauBalanceOf(alice)).toBe(units(7_000_001n, 12n));
    expect(await chain.balanceOf(bob)).toBe(units(205n, 14n));

    const txHash = sent.at(-1)?.hash as Hex;
    for (const requestId of requestIds) {
      const paid = await sepolia.server.call("POST", `/sandbox/requests/${requestId}/payments`, {
        body: { outcome: "paid", txHash },
      });
      expect(paid.status).toBe(201);
      expect(paid.body.payments).toEqual([expect.objectContaining({ outcome: "paid", txHash })]);
    }
    const check = await sepolia.server.call("GET", `/v2/secure-payments/${token}`);
    problemErrors(check, "/problems/secure-payment-completed", 409);
  });
});
