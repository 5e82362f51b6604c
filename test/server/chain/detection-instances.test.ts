import {
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseUnits,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sepolia } from "viem/chains";
import { afterAll, beforeAll, expect, it } from "vitest";
import { erc20ApproveAbi, erc20FeeProxyAbi, findToken, type TokenRecord } from "../../../src/chain/index.ts";
import type { LocalChain } from "../../../src/chain/local/local-chain.ts";
import { PaymentDetector } from "../../../src/server/chain-detection/payment-detector.ts";
import { createFixedClock, createPostgresStore, type Store } from "../../../src/server/index.ts";
import { anvilSkipReason, sharedLocalChain } from "../../support/anvil.ts";
import { describeUnless } from "../../support/describe-unless.ts";
import { postgresSkipReason, sharedPostgres } from "../../support/postgres.ts";
import { payee, startInstant, startTestServer, type TestServer } from "../helpers.ts";

// Several instances share one database: each reads the chain, and each log is recorded by one.

const fau = findToken("FAU-sepolia") as TokenRecord;

describeUnless(
  anvilSkipReason ?? postgresSkipReason,
  "payment detection by two instances on one PostgreSQL database",
  () => {
    let chain: LocalChain;
    let store: Store;
    let server: TestServer;
    beforeAll(async () => {
      chain = await sharedLocalChain();
      store = await createPostgresStore({
        connectionString: await (await sharedPostgres()).createMigratedDatabase(),
      });
      server = await startTestServer({ store });
    });
    afterAll(async () => {
      await server?.close();
      await store?.close();
    });

    it("records a payment once when both read its log at the same time, and neither records it again", async () => {
      const created = await server.call("POST", "/v2/request", {
        body: { payee, amount: "7", invoiceCurrency: "FAU-sepolia", paymentCurrency: "FAU-sepolia" },
      });
      expect(created.status).toBe(201);
      const { requestId, paymentReference } = created.body as { requestId: string; paymentReference: Hex };
      const account = privateKeyToAccount(chain.accounts[2]?.privateKey as Hex);
      const wallet = createWalletClient({ chain: sepolia, transport: http(chain.rpcUrl), account }).extend(
        publicActions,
      );
      const amount = parseUnits("7", 18);
      await wallet.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: fau.address,
          abi: erc20ApproveAbi,
          functionName: "approve",
          args: [chain.contracts.erc20FeeProxy, amount],
        }),
      });
      const hash = await wallet.sendTransaction({
        to: chain.contracts.erc20FeeProxy,
        data: encodeFunctionData({
          abi: erc20FeeProxyAbi,
          functionName: "transferFromWithReferenceAndFee",
          args: [fau.address, getAddress(payee), amount, paymentReference, 0n, account.address],
        }),
      });
      await wallet.waitForTransactionReceipt({ hash });

      const detector = () =>
        new PaymentDetector({
          store,
          baseClock: createFixedClock(startInstant),
          logger: { error: (message) => expect.fail(message) },
          rpcUrl: chain.rpcUrl,
          network: "sepolia",
        });
      const [first, second] = [detector(), detector()];
      await Promise.all([first.readOnce(), second.readOnce()]);
      await Promise.all([first.readOnce(), second.readOnce()]);

      const request = await server.call("GET", `/v2/request/${requestId}`);
      expect(request.body).toMatchObject({ status: "paid", txHash: hash, payments: [{ amount: "7" }] });
      const events = await store.listEvents();
      const recorded = events.filter(
        (event) => event.type === "request.payment_recorded" && event.data.requestId === requestId,
      );
      expect(recorded.map((event) => event.data.txHash)).toEqual([hash]);
    });
  },
);
