import { getAddress, type Hex, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import type { components } from "../../../generated/schema.d.ts";
import { erc20ProxyEvents, ethereumProxyEvents } from "../../chain/support/proxy-events.ts";
import type { TestReceipt } from "../../chain/support/test-chain.ts";
import { payee } from "../helpers.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { useSepoliaServer } from "./support/sepolia-server.ts";

// The flows of the service's own invoicing app, run against the reference server and executed in an
// in-process EVM: exactly the members the app reads, in the order it sends the transactions.

type PayCalldata = components["schemas"]["PayCalldata"];
type Transaction = components["schemas"]["Transaction"];

const sepolia = useSepoliaServer();

const alice = getAddress(payee);
const bob = getAddress("0x00000000000000000000000000000000000b0b0b");
const ether = 10n ** 18n;

/** Creates an invoice as the app does (USD, paid in a Sepolia currency) and returns its request. */
async function createInvoice(amount: string, paymentCurrency: string, to = alice) {
  const created = await sepolia.server.call("POST", "/v2/secure-payments", {
    body: { requests: [{ payee: to, amount, invoiceCurrency: "USD", paymentCurrency }] },
  });
  expect(created.status).toBe(201);
  const requestId = created.body.requestIds[0] as string;
  const stored = await sepolia.server.call("GET", `/sandbox/requests/${requestId}`);
  return { requestId, referenceTopic: keccak256(stored.body.paymentReference as Hex) };
}

/**
 * The pay page: with `needsApproval`, every transaction whose index is not
 * `paymentTransactionIndex`, in order, then the one at `paymentTransactionIndex`.
 */
async function payLikeThePayPage(pay: PayCalldata): Promise<TestReceipt[]> {
  const { transactions, metadata } = pay;
  const index = metadata.paymentTransactionIndex as number;
  const approvals = metadata.needsApproval ? transactions.filter((_, i) => i !== index) : [];
  const payment = transactions[index] as Transaction;
  return sendServerTransactions(sepolia.deployment.chain, sepolia.deployment.payer, [...approvals, payment]);
}

/** The batch screen: each of `ERC20ApprovalTransactions` when there are any, then `batchPaymentTransaction`. */
async function payLikeTheBatchScreen(batch: components["schemas"]["BatchPayout"]): Promise<TestReceipt[]> {
  const approvals = batch.ERC20ApprovalTransactions ?? [];
  const toSend = approvals.length > 0 ? [...approvals] : [];
  return sendServerTransactions(sepolia.deployment.chain, sepolia.deployment.payer, [
    ...toSend,
    batch.batchPaymentTransaction as Transaction,
  ]);
}

describe("the app's pay page on getPayCalldata (GET /v2/request/{requestId}/pay?wallet=)", () => {
  it("a USD invoice paid in FAU: the approval, then the payment at paymentTransactionIndex", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf } = sepolia.deployment;
    const { requestId, referenceTopic } = await createInvoice("150", "FAU-sepolia");
    const pay = await sepolia.server.call("GET", `/v2/request/${requestId}/pay?wallet=${payer.address}`);
    expect(pay.status).toBe(200);
    expect(pay.body.metadata).toMatchObject({
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
    });

    const sent = await payLikeThePayPage(pay.body);
    expect(sent).toHaveLength(2);
    expect(erc20ProxyEvents(sent.at(-1)?.logs ?? [], contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: alice,
        amount: 150n * ether,
        paymentReference: referenceTopic,
        feeAmount: 0n,
        feeAddress: "0x0000000000000000000000000000000000000000",
        referenceTopic,
      },
    ]);
    expect(await fauBalanceOf(alice)).toBe(150n * ether);
    expect(await chain.balanceOf(contracts.erc20FeeProxy)).toBe(0n);
  });

  it("a USD invoice paid in ETH on Sepolia: no approval, the payment alone at index 0", async () => {
    const { chain, payer, contracts } = sepolia.deployment;
    const { requestId, referenceTopic } = await createInvoice("10", "ETH-sepolia-sepolia");
    const pay = await sepolia.server.call("GET", `/v2/request/${requestId}/pay?wallet=${payer.address}`);
    expect(pay.body.metadata).toMatchObject({
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
    });
    // 10 USD at the sandbox price of 2000 USD per ETH.
    expect(pay.body.transactions[0].value).toEqual({ type: "BigNumber", hex: "0x11c37937e08000" });

    const sent = await payLikeThePayPage(pay.body);
    expect(ethereumProxyEvents(sent.at(-1)?.logs ?? [], contracts.ethereumFeeProxy)).toEqual([
      {
        to: alice,
        amount: 5n * 10n ** 15n,
        paymentReference: referenceTopic,
        feeAmount: 0n,
        feeAddress: "0x0000000000000000000000000000000000000000",
        referenceTopic,
      },
    ]);
    expect(await chain.balanceOf(alice)).toBe(5n * 10n ** 15n);
  });
});

describe("the app's batch screen on createBatchPayout (POST /v2/payouts/batch with requestIds and payer)", () => {
  const batchOf = async (invoices: { requestId: string }[]) => {
    const answer = await sepolia.server.call("POST", "/v2/payouts/batch", {
      body: {
        requestIds: invoices.map((invoice) => invoice.requestId),
        payer: sepolia.deployment.payer.address,
      },
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };

  it("all ERC-20: one approval of the batch contract, then the batch pays each invoice", async () => {
    const { contracts, fau, fauBalanceOf } = sepolia.deployment;
    const invoices = [
      await createInvoice("20", "FAU-sepolia"),
      await createInvoice("5.5", "FAU-sepolia", bob),
    ];
    const batch = await batchOf(invoices);
    expect(batch.ERC20ApprovalTransactions.map((tx: Transaction) => tx.to)).toEqual([fau.address]);

    const sent = await payLikeTheBatchScreen(batch);
    expect(sent).toHaveLength(2);
    expect(
      erc20ProxyEvents(sent.at(-1)?.logs ?? [], contracts.erc20FeeProxy).map((event) => [
        event.to,
        event.amount,
        event.referenceTopic,
      ]),
    ).toEqual([
      [alice, 20n * ether, invoices[0]?.referenceTopic],
      [bob, 55n * 10n ** 17n, invoices[1]?.referenceTopic],
    ]);
    expect(await fauBalanceOf(bob)).toBe(55n * 10n ** 17n);
  });

  it("all native: an empty approval list, so the batch alone carries the ETH", async () => {
    const { chain, contracts } = sepolia.deployment;
    const invoices = [
      await createInvoice("10", "ETH-sepolia-sepolia"),
      await createInvoice("4", "ETH-sepolia-sepolia", bob),
    ];
    const batch = await batchOf(invoices);
    expect(batch.ERC20ApprovalTransactions).toEqual([]);
    // 0.005 + 0.002 ETH.
    expect(batch.batchPaymentTransaction.value).toEqual({ type: "BigNumber", hex: "0x18de76816d8000" });

    const sent = await payLikeTheBatchScreen(batch);
    expect(sent).toHaveLength(1);
    expect(
      ethereumProxyEvents(sent[0]?.logs ?? [], contracts.ethereumFeeProxy).map((event) => [
        event.to,
        event.amount,
        event.referenceTopic,
      ]),
    ).toEqual([
      [alice, 5n * 10n ** 15n, invoices[0]?.referenceTopic],
      [bob, 2n * 10n ** 15n, invoices[1]?.referenceTopic],
    ]);
    expect(await chain.balanceOf(bob)).toBe(2n * 10n ** 15n);
  });

  it("mixed: the FAU approval, then one batch paying the FAU and the ETH invoices", async () => {
    const { chain, contracts, fauBalanceOf } = sepolia.deployment;
    const invoices = [
      await createInvoice("12", "FAU-sepolia"),
      await createInvoice("1", "ETH-sepolia-sepolia", bob),
    ];
    const batch = await batchOf(invoices);
    expect(batch.ERC20ApprovalTransactions).toHaveLength(1);

    const sent = await payLikeTheBatchScreen(batch);
    const logs = sent.at(-1)?.logs ?? [];
    expect(erc20ProxyEvents(logs, contracts.erc20FeeProxy).map((event) => [event.to, event.amount])).toEqual([
      [alice, 12n * ether],
    ]);
    expect(
      ethereumProxyEvents(logs, contracts.ethereumFeeProxy).map((event) => [event.to, event.amount]),
    ).toEqual([[bob, 5n * 10n ** 14n]]);
    expect(await fauBalanceOf(alice)).toBe(12n * ether);
    expect(await chain.balanceOf(bob)).toBe(5n * 10n ** 14n);
  });
});
