import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type {
  DomainEvent,
  Page,
  PageRequest,
  PaymentDetailRecord,
  RequestRecord,
  Store,
  WebhookDeliveryRecord,
} from "../../../src/server/index.ts";
import type { AnyTable } from "../../../src/server/store/table-declaration.ts";
import { type StoreTableName, storeTables } from "../../../src/server/store/tables.ts";
import {
  clientIdRecord,
  delivery,
  endpoint,
  payeeDestination,
  payeeDestinationNonce,
  payeeWallet,
  paymentDetail,
  paymentIntent,
  request,
  requestId,
  sampleRecords,
} from "./fixtures.ts";

/** A store's table whatever its declaration: keys and lookup values as its fields name them. */
interface AnyStoreTable {
  get(key: unknown): Promise<unknown>;
  put(record: unknown): Promise<void>;
  delete(key: unknown): Promise<boolean>;
  first(lookup: string, value: unknown): Promise<unknown>;
  find(lookup: string, value: unknown): Promise<Page<unknown>>;
}

/**
 * The behaviour every Store keeps, run against each store (test/server/store/*.test.ts). Every
 * declared table is held to its declaration by the generic tests below (with a sample record from
 * fixtures.ts); a store's own operation, or what a declaration alone cannot show, joins with a
 * test here: both stores are then held to it.
 */
export function describeStoreConformance(name: string, openStore: () => Promise<Store>): void {
  describe(`${name}: the Store contract`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await openStore();
    });
    afterEach(() => store.close());

    it("hands out copies: changing a returned record changes nothing stored", async () => {
      const record = request(requestId("a"));
      await store.requests.put(record);
      record.status = "paid";
      const read = (await store.requests.get(record.requestId)) as RequestRecord;
      expect(read.status).toBe("pending");
      read.payments.push({
        id: "pay_1",
        outcome: "paid",
        amount: "1",
        txHash: "0x00",
        subStatus: null,
        recordedAt: "x",
        payer: null,
        sourceNetwork: null,
      });
      expect((await store.requests.get(record.requestId))?.payments).toEqual([]);
    });

    // Every declared table, by its declaration alone: get, put, delete, and each lookup (a value
    // of a field compared in any letter case given in upper case), unique ones refusing a second.
    for (const [name, declaration] of Object.entries(storeTables) as [StoreTableName, AnyTable][]) {
      it(`keeps ${name} by its key, finds them by each declared lookup, and deletes them`, async () => {
        const table = store[name] as unknown as AnyStoreTable;
        const record = sampleRecords[name] as unknown as Record<string, unknown>;
        const caseInsensitive: readonly string[] = declaration.caseInsensitive ?? [];
        const namedBy = (fields: readonly string[], of = record) => {
          const value = (field: string) => {
            const kept = of[field] as string;
            return caseInsensitive.includes(field) ? kept.toUpperCase() : kept;
          };
          return fields.length === 1
            ? value(fields[0] as string)
            : Object.fromEntries(fields.map((field) => [field, value(field)]));
        };
        const key = namedBy(declaration.key);
        expect(await table.get(key)).toBeUndefined();
        await table.put(record);
        expect(await table.get(key)).toEqual(record);
        for (const [lookup, { fields, listed, unique }] of Object.entries(declaration.lookups)) {
          expect(await table.first(lookup, namedBy(fields)), lookup).toEqual(record);
          if (listed) {
            expect(await table.find(lookup, namedBy(fields)), lookup).toEqual({
              items: [record],
              next: null,
            });
          }
          if (unique) {
            const free = declaration.key.filter((field) => !fields.includes(field));
            const second = {
              ...record,
              ...Object.fromEntries(free.map((field) => [field, `${record[field]}-2`])),
            };
            await expect(table.put(second), lookup).rejects.toThrow();
            expect(await table.get(namedBy(declaration.key, second)), lookup).toBeUndefined();
          }
        }
        expect(await table.delete(key)).toBe(true);
        expect(await table.delete(key)).toBe(false);
        expect(await table.get(key)).toBeUndefined();
        for (const [lookup, { fields }] of Object.entries(declaration.lookups)) {
          expect(await table.first(lookup, namedBy(fields)), lookup).toBeUndefined();
        }
      });
    }

    it("lists a lookup's records a page at a time, narrowed by a filter, and undoes a delete with its transaction", async () => {
      const ids = ["1", "2", "3", "4", "5"].map(requestId);
      for (const [index, id] of ids.entries()) {
        await store.requests.put({ ...request(id), recurringPaymentId: index % 2 === 1 ? "rp_1" : null });
      }
      await store.requests.put(request(requestId("6"), "other"));
      const listed = async (page?: PageRequest, filter?: { recurringPaymentId: string }) => {
        const found = await store.requests.find("account", "acct", page, filter);
        return { ids: found.items.map((record) => record.requestId), next: found.next };
      };
      const first = await listed({ limit: 2 });
      expect(first.ids).toEqual(ids.slice(0, 2));
      const second = await listed({ limit: 2, after: first.next as number });
      expect(second.ids).toEqual(ids.slice(2, 4));
      expect(await listed({ limit: 2, after: second.next as number })).toEqual({
        ids: ids.slice(4),
        next: null,
      });
      const narrowed = await listed({ limit: 1 }, { recurringPaymentId: "rp_1" });
      expect(narrowed.ids).toEqual([ids[1]]);
      expect(
        await listed({ limit: 1, after: narrowed.next as number }, { recurringPaymentId: "rp_1" }),
      ).toEqual({
        ids: [ids[3]],
        next: null,
      });
      await expect(
        store.requests.find("account", "acct", undefined, { status: "paid" } as never),
      ).rejects.toThrow("cannot be filtered by status");

      await expect(
        store.withTransaction(async (tx) => {
          expect(await tx.requests.delete(ids[2] as string)).toBe(true);
          expect(await tx.requests.get(ids[2] as string)).toBeUndefined();
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect((await listed()).ids).toEqual(ids);
      expect(await store.requests.delete(ids[2] as string)).toBe(true);
      expect((await listed()).ids).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      expect(await store.requests.first("paymentReference", `0x${"3".repeat(16)}`)).toBeUndefined();
    });

    it("keeps every record type, by its key, and replaces on a second put", async () => {
      await store.securePayments.put(sampleRecords.securePayments);
      await store.payers.put(sampleRecords.payers);
      await store.paymentDetails.put({
        id: "pd1",
        accountId: "acct",
        clientUserId: "ada",
        bankName: "Bank",
        accountName: "Ada",
        currency: "usd",
        beneficiaryType: "individual",
        rails: "local",
        status: "approved",
        createdAt: "t",
      });
      await store.sandboxClocks.put({ accountId: "acct", offsetMs: 5000 });
      await store.sandboxClocks.put({ accountId: "acct", offsetMs: -1000 });
      expect((await store.securePayments.get("tok"))?.requestIds).toEqual([requestId("a")]);
      expect((await store.payers.get({ accountId: "acct", clientUserId: "ada" }))?.userId).toBe("u1");
      expect(await store.payers.get({ accountId: "other", clientUserId: "ada" })).toBeUndefined();
      expect((await store.paymentDetails.get("pd1"))?.bankName).toBe("Bank");
      expect(await store.paymentDetails.get("pd2")).toBeUndefined();
      expect(await store.sandboxClocks.get("acct")).toEqual({ accountId: "acct", offsetMs: -1000 });
      expect(await store.sandboxClocks.get("other")).toBeUndefined();
    });

    it("finds requests by payment reference in any letter case", async () => {
      const id = `01${"b".repeat(48)}abcdef0123456789`;
      await store.requests.put(request(id));
      expect((await store.requests.first("paymentReference", "0xABCDEF0123456789"))?.requestId).toBe(id);
      expect(await store.requests.first("paymentReference", "0x0000000000000000")).toBeUndefined();
    });

    it("finds a client ID by its current public value only, after the value changes", async () => {
      await store.clientIds.put(clientIdRecord("cid_1", "pk_old_value"));
      await store.clientIds.put(clientIdRecord("cid_2", "pk_other"));
      await store.clientIds.put(clientIdRecord("cid_1", "pk_new_value"));
      expect(await store.clientIds.first("publicValue", "pk_old_value")).toBeUndefined();
      expect((await store.clientIds.first("publicValue", "pk_new_value"))?.id).toBe("cid_1");
      expect((await store.clientIds.find("all", {})).items.map((record) => record.id)).toEqual([
        "cid_1",
        "cid_2",
      ]);
    });

    it("keeps client IDs by id, and lists one account's or every account's, a revoked one in its place", async () => {
      await store.clientIds.put(clientIdRecord("cid_1", "pk_one"));
      await store.clientIds.put(clientIdRecord("cid_2", "pk_two", "other"));
      await store.clientIds.put(clientIdRecord("cid_3", "pk_three"));
      await store.clientIds.put({
        ...clientIdRecord("cid_1", "pk_one"),
        status: "revoked",
        updatedAt: "later",
      });
      expect(await store.clientIds.get("cid_1")).toEqual({
        ...clientIdRecord("cid_1", "pk_one"),
        status: "revoked",
        updatedAt: "later",
      });
      expect(await store.clientIds.get("cid_9")).toBeUndefined();
      expect((await store.clientIds.first("publicValue", "pk_one"))?.status).toBe("revoked");
      const listed = (await store.clientIds.find("account", "acct")).items;
      expect(listed.map((record) => [record.id, record.status])).toEqual([
        ["cid_1", "revoked"],
        ["cid_3", "active"],
      ]);
      expect((await store.clientIds.find("account", "other")).items.map((record) => record.id)).toEqual([
        "cid_2",
      ]);
      expect((await store.clientIds.find("account", "nobody")).items).toEqual([]);
      expect((await store.clientIds.find("all", {})).items.map((record) => record.id)).toEqual([
        "cid_1",
        "cid_2",
        "cid_3",
      ]);
      await expect(
        store.withTransaction(async (tx) => {
          await tx.clientIds.put(clientIdRecord("cid_4", "pk_four"));
          await tx.clientIds.put({ ...clientIdRecord("cid_3", "pk_three"), status: "inactive" });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.clientIds.first("publicValue", "pk_four")).toBeUndefined();
      expect((await store.clientIds.get("cid_3"))?.status).toBe("active");
    });

    it("lists one account's requests in creation order, a replaced one in its place", async () => {
      const [first, second, third] = ["1", "2", "3"].map((digit) => request(requestId(digit)));
      await store.requests.put(first as RequestRecord);
      await store.requests.put({ ...(second as RequestRecord), accountId: "other" });
      await store.requests.put(third as RequestRecord);
      await store.requests.put({ ...(first as RequestRecord), status: "paid" });
      const listed = (await store.requests.find("account", "acct")).items;
      expect(listed.map((record) => [record.requestId, record.status])).toEqual([
        [requestId("1"), "paid"],
        [requestId("3"), "pending"],
      ]);
      expect((await store.requests.find("account", "other")).items.map((record) => record.requestId)).toEqual(
        [requestId("2")],
      );
      expect((await store.requests.find("account", "nobody")).items).toEqual([]);
    });

    it("lists the periods of one recurring payment among an account's requests, oldest first", async () => {
      const period = (digit: string, recurringPaymentId: string, accountId = "acct") => ({
        ...request(requestId(digit), accountId),
        recurringPaymentId,
      });
      await store.requests.put(period("1", "rp_1"));
      await store.requests.put(request(requestId("2")));
      await store.requests.put(period("3", "rp_2"));
      await store.requests.put(period("4", "rp_1", "other"));
      await store.requests.put(period("5", "rp_1"));
      await store.requests.put({ ...period("1", "rp_1"), status: "paid" });
      const ids = async (accountId: string, recurringPaymentId: string) =>
        (
          await store.requests.find("recurringPayment", recurringPaymentId, undefined, { accountId })
        ).items.map((record) => record.requestId);
      expect(await ids("acct", "rp_1")).toEqual([requestId("1"), requestId("5")]);
      expect(await ids("acct", "rp_2")).toEqual([requestId("3")]);
      expect(await ids("other", "rp_1")).toEqual([requestId("4")]);
      expect(await ids("acct", "rp_9")).toEqual([]);
      expect((await store.requests.find("account", "acct")).items.map((record) => record.requestId)).toEqual(
        ["1", "2", "3", "5"].map(requestId),
      );
    });

    it("keeps payment intents by id, as copies, and forgets them with the transaction that failed", async () => {
      const intent = paymentIntent("01KP3G7ZQ6V2D8W4N5R9T1XHJC");
      await store.paymentIntents.put(intent);
      intent.status = "submitted";
      expect(await store.paymentIntents.get(intent.id)).toEqual(paymentIntent("01KP3G7ZQ6V2D8W4N5R9T1XHJC"));
      await store.paymentIntents.put({ ...intent, status: "submitted", updatedAt: "later" });
      expect((await store.paymentIntents.get(intent.id))?.status).toBe("submitted");
      await expect(
        store.withTransaction(async (tx) => {
          await tx.paymentIntents.put(paymentIntent("01KP3G7ZQ6V2D8W4N5R9T1XHJD"));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.paymentIntents.get("01KP3G7ZQ6V2D8W4N5R9T1XHJD")).toBeUndefined();
    });

    it("lists the payment details of one payer of one account, oldest first", async () => {
      await store.paymentDetails.put(paymentDetail("pd_2", "acct", "cust-1"));
      await store.paymentDetails.put(paymentDetail("pd_other_payer", "acct", "cust-2"));
      await store.paymentDetails.put(paymentDetail("pd_other_account", "acct_other", "cust-1"));
      await store.paymentDetails.put(paymentDetail("pd_1", "acct", "cust-1"));
      await store.paymentDetails.put({ ...paymentDetail("pd_2", "acct", "cust-1"), status: "failed" });
      const listed = (await store.paymentDetails.find("payer", { accountId: "acct", clientUserId: "cust-1" }))
        .items;
      expect(listed.map((record) => [record.id, record.status])).toEqual([
        ["pd_2", "failed"],
        ["pd_1", "approved"],
      ]);
      (listed[0] as PaymentDetailRecord).status = "pending";
      expect(
        (await store.paymentDetails.find("payer", { accountId: "acct", clientUserId: "cust-1" })).items[0]
          ?.status,
      ).toBe("failed");
      expect(
        (await store.paymentDetails.find("payer", { accountId: "acct", clientUserId: "cust-3" })).items,
      ).toEqual([]);
    });

    it("keeps fields it does not know, as JSON, so that a new record field needs no schema change", async () => {
      const extended = {
        ...request(requestId("f")),
        clientId: "cid_1",
        somethingLater: { nested: [1, "two"] },
      };
      await store.requests.put(extended);
      expect(await store.requests.get(requestId("f"))).toEqual(extended);
      expect((await store.requests.find("account", "acct")).items[0]).toEqual(extended);
    });

    it("keeps how a request was created: its client ID, the Origin and the link; a request without them stays readable", async () => {
      const fromPage: RequestRecord = {
        ...request(requestId("7")),
        clientId: "pk_shop",
        origin: "https://shop.example.com",
        securePaymentToken: "tok_page",
      };
      const fromServer: RequestRecord = { ...request(requestId("8")), clientId: "pk_backend", origin: null };
      const before = request(requestId("9"));
      for (const record of [fromPage, fromServer, before]) await store.requests.put(record);
      expect(await store.requests.get(fromPage.requestId)).toEqual(fromPage);
      expect(await store.requests.get(fromServer.requestId)).toEqual(fromServer);
      const read = await store.requests.get(before.requestId);
      expect(read).toEqual(before);
      expect(read?.origin).toBeUndefined();
    });

    it("keeps what the webhooks report: a request's client ID, who paid, steps and refunds, the recurrence it continues", async () => {
      const wallet = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";
      const original = { ...request(requestId("1")), clientId: "pk_shop", recurringPaymentId: null };
      const period: RequestRecord = {
        ...request(requestId("2")),
        clientId: null,
        recurringPaymentId: "rp_1",
        originalRequestId: original.requestId,
        originalRequestPaymentReference: original.paymentReference,
        status: "partially_paid",
        amountPaid: "400000",
        payments: [
          {
            id: "pay_1",
            outcome: "processing",
            amount: "0",
            txHash: `0x${"1".repeat(64)}`,
            subStatus: "ongoing_checks",
            recordedAt: "t1",
            payer: null,
            sourceNetwork: null,
          },
          {
            id: "pay_2",
            outcome: "paid",
            amount: "1000000",
            txHash: `0x${"2".repeat(64)}`,
            subStatus: null,
            recordedAt: "t2",
            payer: wallet,
            payerEoaAddress: wallet,
            sourceNetwork: null,
          },
          {
            id: "pay_3",
            outcome: "refunded",
            amount: "600000",
            txHash: `0x${"3".repeat(64)}`,
            subStatus: null,
            recordedAt: "t3",
            payer: null,
            sourceNetwork: null,
            refundedTo: wallet,
          },
        ],
      };
      await store.requests.put(original);
      await store.requests.put(period);
      expect(await store.requests.get(original.requestId)).toEqual(original);
      expect(await store.requests.get(period.requestId)).toEqual(period);
      const periods = (
        await store.requests.find("recurringPayment", "rp_1", undefined, { accountId: "acct" })
      ).items;
      expect(periods).toEqual([period]);

      await store.recurringPayments.put({
        id: "rp_1",
        accountId: "acct",
        status: "active",
        payer: wallet,
        payee: wallet,
        currency: "USDC-base",
        amountPerPayment: "1000000",
        totalPayments: 3,
        processedPayments: 1,
        spender: wallet,
        nextPaymentDate: null,
        currentRequestId: null,
        originalRequestId: original.requestId,
        createdAt: "t",
        updatedAt: "t",
      });
      expect((await store.recurringPayments.get("rp_1"))?.originalRequestId).toBe(original.requestId);
    });

    it("keeps a link's redirect label and payer identifier, and payers' and bank accounts' decided statuses", async () => {
      const link = {
        token: "tok",
        accountId: "acct",
        requestIds: [requestId("a")],
        network: "base",
        status: "pending" as const,
        reference: "INV-7",
        redirectUrl: "https://shop.example.com/thanks",
        redirectLabel: "Back to the shop",
        payerIdentifier: "customer-42",
        kind: "incoming" as const,
        createdAt: "t",
        expiresAt: "t",
        updatedAt: "t",
      };
      await store.securePayments.put(link);
      expect(await store.securePayments.get("tok")).toEqual(link);
      // The wallets it refused, by when their last secure_payment.access_rejected was sent.
      const refusing = {
        ...link,
        token: "tok_refusing",
        accessRejectionsSentAt: { "0x2e2e5c79f571ef1658d4c2d3684a1fe97dd30570": "2026-04-12T10:00:00.000Z" },
      };
      await store.securePayments.put(refusing);
      expect(await store.securePayments.get("tok_refusing")).toEqual(refusing);
      const payer = {
        accountId: "acct",
        clientUserId: "ada",
        userId: "u1",
        beneficiaryType: "individual" as const,
        kycStatus: "retry_required" as const,
        agreementStatus: "signed" as const,
        createdAt: "t",
        updatedAt: "t2",
      };
      await store.payers.put(payer);
      expect(await store.payers.get({ accountId: "acct", clientUserId: "ada" })).toEqual(payer);
      await store.paymentDetails.put(paymentDetail("pd_1", "acct", "ada"));
      await store.withTransaction(async (tx) => {
        const detail = (await tx.paymentDetails.get("pd_1")) as PaymentDetailRecord;
        await tx.paymentDetails.put({ ...detail, status: "failed", updatedAt: "t3" });
      });
      expect(
        (await store.paymentDetails.find("payer", { accountId: "acct", clientUserId: "ada" })).items,
      ).toEqual([{ ...paymentDetail("pd_1", "acct", "ada"), status: "failed", updatedAt: "t3" }]);
    });

    it("keeps payee destinations per account, and finds a wallet's one active destination in any letter case", async () => {
      await store.payeeDestinations.put(payeeDestination("dest_old", false));
      await store.payeeDestinations.put(payeeDestination("dest_current", true));
      await store.payeeDestinations.put(payeeDestination("dest_theirs", true, "acct_other"));
      expect(
        await store.payeeDestinations.first("activeWallet", {
          accountId: "acct",
          walletAddress: payeeWallet.toLowerCase(),
        }),
      ).toEqual(payeeDestination("dest_current", true));
      expect(
        (
          await store.payeeDestinations.first("activeWallet", {
            accountId: "acct_other",
            walletAddress: payeeWallet.toUpperCase().replace("0X", "0x"),
          })
        )?.destinationId,
      ).toBe("dest_theirs");
      expect(
        await store.payeeDestinations.first("activeWallet", {
          accountId: "acct",
          walletAddress: "0x0000000000000000000000000000000000000001",
        }),
      ).toBeUndefined();
      expect(
        await store.payeeDestinations.get({ accountId: "acct", destinationId: "dest_theirs" }),
      ).toBeUndefined();
      expect(await store.payeeDestinations.get({ accountId: "acct", destinationId: "dest_old" })).toEqual(
        payeeDestination("dest_old", false),
      );

      // A second active destination of one wallet in one account is refused; deactivating the
      // first and registering the next in one transaction is how a wallet moves on.
      await expect(store.payeeDestinations.put(payeeDestination("dest_next", true))).rejects.toThrow();
      expect(
        await store.payeeDestinations.get({ accountId: "acct", destinationId: "dest_next" }),
      ).toBeUndefined();
      await store.withTransaction(async (tx) => {
        await tx.payeeDestinations.put(payeeDestination("dest_current", false));
        await tx.payeeDestinations.put(payeeDestination("dest_next", true));
      });
      expect(
        (
          await store.payeeDestinations.first("activeWallet", {
            accountId: "acct",
            walletAddress: payeeWallet,
          })
        )?.destinationId,
      ).toBe("dest_next");
      expect(
        (await store.payeeDestinations.get({ accountId: "acct", destinationId: "dest_current" }))?.active,
      ).toBe(false);
    });

    it("keeps payee destination signing sessions by nonce, and forgets a use the failing transaction made", async () => {
      await store.payeeDestinationNonces.put(payeeDestinationNonce("n1"));
      await expect(
        store.withTransaction(async (tx) => {
          await tx.payeeDestinationNonces.put({
            ...payeeDestinationNonce("n1"),
            usedAt: "2026-04-12T10:01:00.000Z",
          });
          await tx.payeeDestinations.put(payeeDestination("dest_current", true));
          throw new Error("signature refused");
        }),
      ).rejects.toThrow("signature refused");
      expect(await store.payeeDestinationNonces.get("n1")).toEqual(payeeDestinationNonce("n1"));
      expect(
        await store.payeeDestinations.get({ accountId: "acct", destinationId: "dest_current" }),
      ).toBeUndefined();
      expect(await store.payeeDestinationNonces.get("n2")).toBeUndefined();
    });

    it("keeps a payout link's kind, recipient and creating wallet", async () => {
      const link = {
        token: "tok_payout",
        accountId: "acct",
        requestIds: [requestId("c")],
        network: "sepolia",
        status: "pending" as const,
        reference: null,
        redirectUrl: null,
        redirectLabel: null,
        payerIdentifier: null,
        kind: "payout" as const,
        payout: { recipientIdentifier: "vendor-9", creatorWalletAddress: payeeWallet },
        createdAt: "t",
        expiresAt: "t",
        updatedAt: "t",
      };
      await store.securePayments.put(link);
      expect(await store.securePayments.get("tok_payout")).toEqual(link);
      await store.securePayments.put({ ...link, status: "invalidated" as const, updatedAt: "t2" });
      expect(await store.securePayments.get("tok_payout")).toEqual({
        ...link,
        status: "invalidated",
        updatedAt: "t2",
      });
    });

    it("carries webhook events about a payer, which name no request, through the outbox to deliveries", async () => {
      const data = {
        eventId: "ev_payer",
        accountId: "acct",
        requestId: null,
        payload: { clientUserId: "ada" },
      };
      await store.withTransaction(async (tx) => {
        await tx.appendEvent({ type: "compliance.updated", occurredAt: "t", data });
      });
      const { result } = await store.consumeEvents("webhooks", 10, async (events, tx) => {
        for (const event of events) {
          await tx.webhookDeliveries.put(
            delivery("d_payer", { eventId: event.data.eventId as string, event: "compliance.updated" }),
          );
        }
        return events.map((event) => [event.type, event.data]);
      });
      expect(result).toEqual([["compliance.updated", data]]);
      await store.webhookDeliveries.put(delivery("d_request", { requestId: requestId("a") }));
      const ids = async (found: Promise<Page<WebhookDeliveryRecord>>) =>
        (await found).items.map((record) => record.id);
      expect(await ids(store.webhookDeliveries.find("account", "acct"))).toEqual(["d_payer", "d_request"]);
      expect(await ids(store.webhookDeliveries.find("request", requestId("a")))).toEqual(["d_request"]);
      expect((await store.webhookDeliveries.get("d_payer"))?.requestId).toBeNull();
    });

    it("keeps one wallet book per account, addresses in any letter case", async () => {
      const address = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";
      const spender = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";
      await store.balances.put({ accountId: "a", address, currency: "USDC-base", amount: "5" });
      await store.balances.put({ accountId: "b", address, currency: "USDC-base", amount: "7" });
      await store.balances.put({ accountId: "a", address, currency: "usdc-base", amount: "6" });
      await store.allowances.put({ accountId: "a", address, currency: "USDC-base", spender, amount: "9" });
      const wallet = { accountId: "a", address: address.toLowerCase() };
      const balances = (await store.balances.find("wallet", wallet)).items;
      expect(balances.map((balance) => balance.amount)).toEqual(["6"]);
      const allowances = (await store.allowances.find("wallet", wallet)).items;
      expect(allowances.map((allowance) => [allowance.spender, allowance.amount])).toEqual([[spender, "9"]]);
      expect(
        (await store.balances.find("wallet", { accountId: "b", address })).items.map(
          (balance) => balance.amount,
        ),
      ).toEqual(["7"]);
      expect((await store.balances.find("wallet", { accountId: "c", address })).items).toEqual([]);
      expect(
        (await store.balances.get({ accountId: "a", address: address.toUpperCase(), currency: "usdc-BASE" }))
          ?.amount,
      ).toBe("6");
    });

    it("undoes every change of a transaction that throws, and announces no event", async () => {
      const heard: DomainEvent[] = [];
      store.onEventsCommitted((events) => heard.push(...events));
      const id = requestId("c");
      await store.requests.put(request(id));
      await expect(
        store.withTransaction(async (tx) => {
          await tx.requests.put({ ...request(id), status: "paid" });
          await tx.requests.put(request(requestId("d")));
          await tx.webhookEndpoints.put(endpoint("we_gone"));
          await tx.setOutboxCursor("webhooks", 7);
          await tx.appendEvent({ type: "request.payment_recorded", occurredAt: "now", data: {} });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect((await store.requests.get(id))?.status).toBe("pending");
      expect(await store.requests.get(requestId("d"))).toBeUndefined();
      expect(await store.requests.first("paymentReference", `0x${"d".repeat(16)}`)).toBeUndefined();
      expect(await store.webhookEndpoints.get("we_gone")).toBeUndefined();
      expect(await store.getOutboxCursor("webhooks")).toBe(0);
      expect(await store.listEvents()).toEqual([]);
      expect(heard).toEqual([]);
    });

    it("numbers events at commit, announces each transaction's once, and lists them in pages", async () => {
      const heard: DomainEvent[][] = [];
      store.onEventsCommitted((events) => heard.push(events));
      await store.withTransaction(async (tx) => {
        await tx.appendEvent({ type: "request.created", occurredAt: "t1", data: { n: 1 } });
        await tx.appendEvent({ type: "request.created", occurredAt: "t2", data: { n: 2 } });
      });
      await store.appendEvent({ type: "payer.registered", occurredAt: "t3", data: { n: 3 } });
      expect(heard.map((events) => events.map((event) => [event.sequence, event.data.n]))).toEqual([
        [
          [1, 1],
          [2, 2],
        ],
        [[3, 3]],
      ]);
      expect((await store.listEvents(1)).map((event) => event.sequence)).toEqual([2, 3]);
      expect((await store.listEvents(0, 2)).map((event) => event.data.n)).toEqual([1, 2]);
      expect(await store.listEvents(3)).toEqual([]);
    });

    it("trims the oldest events past the retention, never one a consumer has yet to read", async () => {
      for (let n = 1; n <= 6; n++)
        await store.appendEvent({ type: "request.created", occurredAt: "t", data: { n } });
      await store.setOutboxCursor("webhooks", 2);
      expect(await store.trimEvents(3)).toBe(2);
      expect((await store.listEvents()).map((event) => event.sequence)).toEqual([3, 4, 5, 6]);
      await store.setOutboxCursor("webhooks", 6);
      expect(await store.trimEvents(3)).toBe(1);
      expect((await store.listEvents()).map((event) => event.sequence)).toEqual([4, 5, 6]);
      await store.appendEvent({ type: "request.created", occurredAt: "t", data: { n: 7 } });
      expect((await store.listEvents(6)).map((event) => event.sequence)).toEqual([7]);
    });

    it("lists an account's webhook endpoints oldest first, a page at a time, and deletes them", async () => {
      for (const id of ["we_1", "we_2", "we_3"]) await store.webhookEndpoints.put(endpoint(id));
      await store.webhookEndpoints.put(endpoint("we_other", "other"));
      await store.webhookEndpoints.put({ ...endpoint("we_1"), url: "https://shop.example.com/new" });
      const first = await store.webhookEndpoints.find("account", "acct", { limit: 2 });
      expect(first.items.map((record) => record.id)).toEqual(["we_1", "we_2"]);
      expect(first.next).not.toBeNull();
      const second = await store.webhookEndpoints.find("account", "acct", {
        limit: 2,
        after: first.next as number,
      });
      expect(second).toEqual({ items: [endpoint("we_3")], next: null });
      expect(
        (await store.webhookEndpoints.find("account", "acct")).items.map((record) => record.url),
      ).toEqual([
        "https://shop.example.com/new",
        "https://shop.example.com/hooks",
        "https://shop.example.com/hooks",
      ]);
      expect(await store.webhookEndpoints.delete("we_2")).toBe(true);
      expect(await store.webhookEndpoints.delete("we_2")).toBe(false);
      expect((await store.webhookEndpoints.find("account", "acct")).items.map((record) => record.id)).toEqual(
        ["we_1", "we_3"],
      );
    });

    it("lists deliveries by every lookup and filter, oldest first, in pages, and refuses a second one of an event to an endpoint", async () => {
      await store.webhookDeliveries.put(delivery("d1", { requestId: requestId("a") }));
      await store.webhookDeliveries.put(delivery("d2", { endpointId: "we_2", state: "delivered" }));
      await store.webhookDeliveries.put(delivery("d3", { requestId: requestId("a"), state: "dead" }));
      await store.webhookDeliveries.put(delivery("d4", { accountId: "other" }));
      await store.webhookDeliveries.put(delivery("d1", { requestId: requestId("a"), state: "delivered" }));
      const deliveries = store.webhookDeliveries;
      const ids = async (found: Promise<Page<WebhookDeliveryRecord>>) =>
        (await found).items.map((record) => record.id);
      expect(await ids(deliveries.find("account", "acct"))).toEqual(["d1", "d2", "d3"]);
      expect(await ids(deliveries.find("account", "acct", undefined, { state: "delivered" }))).toEqual([
        "d1",
        "d2",
      ]);
      expect(await ids(deliveries.find("request", requestId("a"), undefined, { state: "dead" }))).toEqual([
        "d3",
      ]);
      expect(await ids(deliveries.find("endpoint", "we_2"))).toEqual(["d2"]);
      expect(await ids(deliveries.find("event", "event_d4"))).toEqual(["d4"]);
      expect(await ids(deliveries.find("pending", {}))).toEqual(["d4"]);
      expect(
        await ids(deliveries.find("all", {}, undefined, { accountId: "other", endpointId: "we_1" })),
      ).toEqual(["d4"]);
      expect(
        (await deliveries.first("eventAndEndpoint", { eventId: "event_d2", endpointId: "we_2" }))?.id,
      ).toBe("d2");
      const page = await deliveries.find("account", "acct", { limit: 2 });
      expect(page.items.map((record) => record.id)).toEqual(["d1", "d2"]);
      const rest = await deliveries.find("account", "acct", { limit: 2, after: page.next as number });
      expect(rest.items.map((record) => record.id)).toEqual(["d3"]);
      expect(rest.next).toBeNull();

      await expect(store.webhookDeliveries.put(delivery("d5", { eventId: "event_d1" }))).rejects.toThrow();
      expect(await store.webhookDeliveries.get("d5")).toBeUndefined();
    });

    it("trims an account's oldest finished deliveries beyond its newest ones, keeping pending ones", async () => {
      await store.webhookDeliveries.put(delivery("d1"));
      await store.webhookDeliveries.put(delivery("d2", { state: "dead" }));
      await store.webhookDeliveries.put(delivery("d3", { state: "delivered" }));
      await store.webhookDeliveries.put(delivery("d4", { state: "delivered" }));
      await store.webhookDeliveries.put(delivery("d5", { accountId: "other", state: "delivered" }));
      expect(await store.trimWebhookDeliveries("acct", 1)).toBe(2);
      const left = await store.webhookDeliveries.find("all", {});
      expect(left.items.map((record) => record.id)).toEqual(["d1", "d4", "d5"]);
      expect(await store.trimWebhookDeliveries("acct", 5)).toBe(0);
    });

    it("leases due deliveries to one worker at a time, oldest due first, until the lease ends", async () => {
      const now = new Date("2026-04-12T10:00:10.000Z");
      const leaseUntil = new Date("2026-04-12T10:00:20.000Z");
      await store.webhookDeliveries.put(delivery("later", { dueAt: "2026-04-12T10:00:30.000Z" }));
      await store.webhookDeliveries.put(delivery("due", { dueAt: "2026-04-12T10:00:05.000Z" }));
      await store.webhookDeliveries.put(delivery("now", { dueAt: null }));
      await store.webhookDeliveries.put(delivery("done", { state: "delivered" }));
      const claimed = await store.claimWebhookDeliveries({ owner: "w1", now, leaseUntil, limit: 5 });
      const lease = { owner: "w1", until: leaseUntil.toISOString(), token: expect.any(String) };
      expect(claimed.map((record) => [record.id, record.lease])).toEqual([
        ["now", lease],
        ["due", lease],
      ]);
      expect(new Set(claimed.map((record) => record.lease?.token)).size).toBe(2);
      expect((await store.webhookDeliveries.get("due"))?.lease).toEqual(claimed[1]?.lease);
      expect(await store.claimWebhookDeliveries({ owner: "w2", now, leaseUntil, limit: 5 })).toEqual([]);
      expect(
        await store.claimWebhookDeliveries({ owner: "w2", now, leaseUntil, limit: 5, id: "later" }),
      ).toEqual([]);

      const afterLease = new Date("2026-04-12T10:00:25.000Z");
      const taken = await store.claimWebhookDeliveries({
        owner: "w2",
        now: afterLease,
        leaseUntil: new Date("2026-04-12T10:00:35.000Z"),
        limit: 1,
      });
      expect(taken.map((record) => [record.id, record.lease?.owner])).toEqual([["now", "w2"]]);
      // A new claim, a new token: w1's changes, fenced by its token, no longer apply.
      expect(taken[0]?.lease?.token).not.toBe(claimed[0]?.lease?.token);
      const one = await store.claimWebhookDeliveries({
        owner: "w3",
        now: new Date("2026-04-12T10:00:40.000Z"),
        leaseUntil: new Date("2026-04-12T10:00:50.000Z"),
        limit: 5,
        id: "later",
      });
      expect(one.map((record) => record.id)).toEqual(["later"]);
    });

    it("leaves out of a claim the deliveries it skips, and those to the endpoints it skips", async () => {
      const now = new Date("2026-04-12T10:00:10.000Z");
      const leaseUntil = new Date("2026-04-12T10:00:20.000Z");
      await store.webhookDeliveries.put(delivery("to_full", { endpointId: "we_full" }));
      await store.webhookDeliveries.put(delivery("to_other", { endpointId: "we_other" }));
      await store.webhookDeliveries.put(delivery("to_free", { endpointId: "we_free" }));
      const claim = { owner: "w1", now, leaseUntil, limit: 5 };
      const claimed = await store.claimWebhookDeliveries({
        ...claim,
        skipEndpoints: ["we_full", "we_other"],
      });
      expect(claimed.map((record) => record.id)).toEqual(["to_free"]);
      expect(
        await store.claimWebhookDeliveries({ ...claim, id: "to_full", skipEndpoints: ["we_full"] }),
      ).toEqual([]);
      const other = await store.claimWebhookDeliveries({ ...claim, skipDeliveries: ["to_full"] });
      expect(other.map((record) => record.id)).toEqual(["to_other"]);
      const rest = await store.claimWebhookDeliveries({ ...claim, skipEndpoints: [], skipDeliveries: [] });
      expect(rest.map((record) => record.id)).toEqual(["to_full"]);
    });

    it("changes one delivery atomically, however many change it at once", async () => {
      await store.webhookDeliveries.put(delivery("d1"));
      const addAttempt = () =>
        store.updateWebhookDelivery("d1", (current) => ({
          ...current,
          nextRetryCount: current.nextRetryCount + 1,
        }));
      await Promise.all(Array.from({ length: 6 }, addAttempt));
      expect((await store.webhookDeliveries.get("d1"))?.nextRetryCount).toBe(6);
      expect(await store.updateWebhookDelivery("d1", () => undefined)).toBeUndefined();
      expect(await store.updateWebhookDelivery("missing", (current) => current)).toBeUndefined();
    });

    it("hands each event to one consumer run, moving the cursor in the same transaction", async () => {
      for (let n = 1; n <= 5; n++)
        await store.appendEvent({ type: "request.created", occurredAt: "t", data: { n } });
      const seen: number[] = [];
      const run = () =>
        store.consumeEvents("webhooks", 2, async (events, tx) => {
          seen.push(...events.map((event) => event.sequence));
          await tx.webhookEndpoints.put(endpoint(`we_${events[0]?.sequence}`));
          return events.length;
        });
      const results = await Promise.all([run(), run(), run(), run()]);
      expect(results.map((result) => result.handled).sort()).toEqual([0, 1, 2, 2]);
      expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await store.getOutboxCursor("webhooks")).toBe(5);
      await expect(
        store.consumeEvents("webhooks", 2, async () => {
          throw new Error("never called: nothing is left");
        }),
      ).resolves.toEqual({ handled: 0, result: undefined });
      await store.appendEvent({ type: "request.created", occurredAt: "t", data: { n: 6 } });
      await expect(
        store.consumeEvents("webhooks", 2, async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.getOutboxCursor("webhooks")).toBe(5);
    });

    it("keeps concurrent transactions from losing each other's changes, and announces each one's events once", async () => {
      const heard: DomainEvent[] = [];
      store.onEventsCommitted((events) => heard.push(...events));
      const id = requestId("e");
      await store.requests.put(request(id));
      // A store may run a conflicting transaction again: only the run that commits may count.
      const addOne = () =>
        store.withTransaction(async (tx) => {
          const current = (await tx.requests.get(id)) as RequestRecord;
          await new Promise((resolve) => setTimeout(resolve, 5));
          const amountPaid = String(BigInt(current.amountPaid) + 1n);
          await tx.requests.put({ ...current, amountPaid });
          await tx.appendEvent({ type: "request.payment_recorded", occurredAt: "t", data: { amountPaid } });
        });
      await Promise.all(Array.from({ length: 8 }, addOne));
      expect((await store.requests.get(id))?.amountPaid).toBe("8");
      const expected = ["1", "2", "3", "4", "5", "6", "7", "8"];
      const heardInSequence = [...heard].sort((a, b) => a.sequence - b.sequence);
      expect(heardInSequence.map((event) => event.data.amountPaid)).toEqual(expected);
      expect((await store.listEvents()).map((event) => [event.sequence, event.data.amountPaid])).toEqual(
        expected.map((amountPaid, index) => [index + 1, amountPaid]),
      );
    });
  });
}
