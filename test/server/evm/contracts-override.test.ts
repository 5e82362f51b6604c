import { getAddress, type Hex, keccak256 } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentContracts } from "../../../src/chain/index.ts";
import { erc20ProxyEvents } from "../../chain/support/proxy-events.ts";
import { feeAddress, payee, startTestServer, type TestServer } from "../helpers.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { deploySepoliaContracts } from "./support/sepolia-deployment.ts";

// A local deployment away from the official addresses, which hold no code in this EVM: a call
// sent there would succeed and move nothing, so the events prove where the calldata went.
const local: PaymentContracts = {
  erc20FeeProxy: getAddress("0x00000000000000000000000000000000000e2001"),
  ethereumFeeProxy: getAddress("0x00000000000000000000000000000000000e2002"),
  batchConversionPayments: getAddress("0x00000000000000000000000000000000000e2003"),
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ contracts: { sepolia: local } });
});
afterAll(() => server.close());

describe("the server's contracts override, executed in an EVM", () => {
  it("approves and pays through the local ERC20FeeProxy the override names", async () => {
    const { chain, payer, fau, fauBalanceOf, fauAllowance } = await deploySepoliaContracts(local);
    const created = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          { payee, amount: "0.000001", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const requestId = created.body.requestIds[0] as string;
    const { paymentReference } = (await server.call("GET", `/sandbox/requests/${requestId}`)).body as {
      paymentReference: Hex;
    };
    const query = new URLSearchParams({ wallet: payer.address, feePercentage: "2.5", feeAddress });
    const pay = await server.call("GET", `/v2/request/${requestId}/pay?${query}`);
    expect(pay.status).toBe(200);
    expect(pay.body.transactions.map((tx: { to: string }) => tx.to)).toEqual([
      fau.address,
      local.erc20FeeProxy,
    ]);

    const [, payment] = await sendServerTransactions(chain, payer, pay.body.transactions);

    expect(erc20ProxyEvents(payment?.logs ?? [], local.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: getAddress(payee),
        amount: 1_000_000_000_000n,
        paymentReference: keccak256(paymentReference),
        feeAmount: 25_000_000_000n,
        feeAddress: getAddress(feeAddress),
        referenceTopic: keccak256(paymentReference),
      },
    ]);
    expect(await fauBalanceOf(getAddress(payee))).toBe(1_000_000_000_000n);
    expect(await fauAllowance(payer.address, local.erc20FeeProxy)).toBe(0n);
  });
});
