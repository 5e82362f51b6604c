import { describe, expectTypeOf, it } from "vitest";
import type {
  Page,
  PayeeDestinationRecord,
  RequestRecord,
  StoreOperations,
  WalletBalanceRecord,
} from "../../../src/server/index.ts";

declare const tx: StoreOperations;

describe("a store's tables, typed from their declarations", () => {
  it("take a one-field key as its value and a key of several fields as an object of them", () => {
    expectTypeOf(tx.requests.get).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(tx.requests.get("01")).resolves.toEqualTypeOf<RequestRecord | undefined>();
    expectTypeOf(tx.payeeDestinations.get)
      .parameter(0)
      .toEqualTypeOf<{ readonly accountId: string; readonly destinationId: string }>();
    // @ts-expect-error a key of two fields is not one string
    void tx.payers.get("acct");
    // @ts-expect-error a record of another table
    void tx.requests.put({ id: "we_1" });
  });

  it("read a declared lookup by its fields, and list only the listed ones", () => {
    expectTypeOf(
      tx.payeeDestinations.first("activeWallet", { accountId: "a", walletAddress: "0x" }),
    ).resolves.toEqualTypeOf<PayeeDestinationRecord | undefined>();
    expectTypeOf(tx.balances.find("wallet", { accountId: "a", address: "0x" })).resolves.toEqualTypeOf<
      Page<WalletBalanceRecord>
    >();
    void tx.clientIds.find("all", {});
    // @ts-expect-error no such lookup
    void tx.requests.first("status", "paid");
    // @ts-expect-error the payment reference lookup is not listed: `first` reads it
    void tx.requests.find("paymentReference", "0x01");
  });

  it("filter a list by the fields they keep apart from the record, with those fields' values", () => {
    void tx.webhookDeliveries.find("account", "acct", { limit: 5 }, { state: "pending", endpointId: "we_1" });
    // @ts-expect-error the url is kept in the record only
    void tx.webhookDeliveries.find("account", "acct", undefined, { url: "https://example.com" });
    // @ts-expect-error not a delivery state
    void tx.webhookDeliveries.find("account", "acct", undefined, { state: "lost" });
  });
});
