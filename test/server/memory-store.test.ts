import { describe, expect, it } from "vitest";
import {
  type ClientIdRecord,
  createMemoryStore,
  type DomainEvent,
  type PayeeDestinationNonceRecord,
  type PayeeDestinationRecord,
  type PaymentDetailRecord,
  type PaymentIntentRecord,
  type RequestRecord,
} from "../../src/server/index.ts";

const request = (requestId: string): RequestRecord => ({
  requestId,
  accountId: "acct",
  network: "base",
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  invoiceAmount: "1",
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
  expectedAmount: "1000000",
  salt: "0011223344556677",
  paymentReference: `0x${requestId.slice(-16)}`,
  status: "pending",
  amountPaid: "0",
  payments: [],
  securePaymentToken: null,
  createdAt: "2026-04-12T10:00:00.000Z",
  updatedAt: "2026-04-12T10:00:00.000Z",
});

describe("the in-memory store", () => {
  it("hands out copies: changing a returned record changes nothing stored", async () => {
    const store = createMemoryStore();
    const record = request(`01${"a".repeat(64)}`);
    await store.putRequest(record);
    record.status = "paid";
    const read = (await store.getRequest(record.requestId)) as RequestRecord;
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
    expect((await store.getRequest(record.requestId))?.payments).toEqual([]);
  });

  it("finds a client ID by its current public value only, after the value changes", async () => {
    const store = createMemoryStore();
    const record: ClientIdRecord = {
      id: "cid_1",
      accountId: "acct",
      clientId: "pk_old_value",
      label: "Shop",
      allowedDomains: ["https://shop.example.com"],
      feePercentage: null,
      feeAddress: null,
      operatorWalletAddress: null,
      defaultPreApprovalExpiry: null,
      defaultAuthorizationExpiry: null,
      status: "active",
      createdAt: "2026-04-12T10:00:00.000Z",
      updatedAt: "2026-04-12T10:00:00.000Z",
      lastUsedAt: null,
    };
    await store.putClientId(record);
    await store.putClientId({ ...record, clientId: "pk_new_value" });
    expect(await store.findClientIdByPublicValue("pk_old_value")).toBeUndefined();
    expect((await store.findClientIdByPublicValue("pk_new_value"))?.id).toBe("cid_1");
  });

  it("lists the payment details of one payer of one account, oldest first", async () => {
    const store = createMemoryStore();
    const detail = (id: string, accountId: string, clientUserId: string): PaymentDetailRecord => ({
      id,
      accountId,
      clientUserId,
      bankName: "Bank",
      accountName: "Holder",
      currency: "EUR",
      beneficiaryType: "individual",
      rails: "local",
      status: "approved",
      createdAt: "2026-04-12T10:00:00.000Z",
    });
    await store.putPaymentDetail(detail("pd_2", "acct", "cust-1"));
    await store.putPaymentDetail(detail("pd_other_payer", "acct", "cust-2"));
    await store.putPaymentDetail(detail("pd_other_account", "acct_other", "cust-1"));
    await store.putPaymentDetail(detail("pd_1", "acct", "cust-1"));
    await store.putPaymentDetail({ ...detail("pd_2", "acct", "cust-1"), status: "failed" });
    const listed = await store.listPaymentDetails("acct", "cust-1");
    expect(listed.map((record) => [record.id, record.status])).toEqual([
      ["pd_2", "failed"],
      ["pd_1", "approved"],
    ]);
    (listed[0] as PaymentDetailRecord).status = "pending";
    expect((await store.listPaymentDetails("acct", "cust-1"))[0]?.status).toBe("failed");
    expect(await store.listPaymentDetails("acct", "cust-3")).toEqual([]);
  });

  it("finds requests by payment reference in any letter case", async () => {
    const store = createMemoryStore();
    await store.putRequest(request(`01${"b".repeat(48)}abcdef0123456789`));
    expect((await store.findRequestByPaymentReference("0xABCDEF0123456789"))?.requestId).toBe(
      `01${"b".repeat(48)}abcdef0123456789`,
    );
  });

  it("lists one account's requests in creation order, a replaced one in its place", async () => {
    const store = createMemoryStore();
    const [first, second, third] = ["1", "2", "3"].map((n) => request(`01${n.repeat(64)}`));
    await store.putRequest(first as RequestRecord);
    await store.putRequest({ ...(second as RequestRecord), accountId: "other" });
    await store.putRequest(third as RequestRecord);
    await store.putRequest({ ...(first as RequestRecord), status: "paid" });
    const listed = await store.listRequests("acct");
    expect(listed.map((record) => [record.requestId, record.status])).toEqual([
      [first?.requestId, "paid"],
      [third?.requestId, "pending"],
    ]);
    expect((await store.listRequests("other")).map((record) => record.requestId)).toEqual([
      second?.requestId,
    ]);
    expect(await store.listRequests("nobody")).toEqual([]);
  });

  it("keeps payment intents by id, as copies, and forgets them with the transaction that failed", async () => {
    const store = createMemoryStore();
    const intent: PaymentIntentRecord = {
      id: "01KP3G7ZQ6V2D8W4N5R9T1XHJC",
      accountId: "acct",
      requestId: `01${"e".repeat(64)}`,
      payer: "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9",
      amount: "50000000",
      sourceNetwork: "optimism",
      sourceCurrency: "USDC-optimism",
      sourceAmount: "50000000",
      paymentIntent: "{}",
      approvalPermit: null,
      status: "issued",
      createdAt: "2026-04-12T10:00:00.000Z",
      updatedAt: "2026-04-12T10:00:00.000Z",
    };
    await store.putPaymentIntent(intent);
    intent.status = "submitted";
    expect((await store.getPaymentIntent(intent.id))?.status).toBe("issued");
    await expect(
      store.withTransaction(async (tx) => {
        await tx.putPaymentIntent({ ...intent, id: "01KP3G7ZQ6V2D8W4N5R9T1XHJD" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await store.getPaymentIntent("01KP3G7ZQ6V2D8W4N5R9T1XHJD")).toBeUndefined();
  });

  it("undoes every change of a transaction that throws, and announces no event", async () => {
    const store = createMemoryStore();
    const heard: DomainEvent[] = [];
    store.onEventsCommitted((events) => heard.push(...events));
    const id = `01${"c".repeat(64)}`;
    await store.putRequest(request(id));
    await expect(
      store.withTransaction(async (tx) => {
        await tx.putRequest({ ...request(id), status: "paid" });
        await tx.putRequest(request(`01${"d".repeat(64)}`));
        await tx.appendEvent({ type: "request.payment_recorded", occurredAt: "now", data: {} });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await store.getRequest(id))?.status).toBe("pending");
    expect(await store.getRequest(`01${"d".repeat(64)}`)).toBeUndefined();
    expect(await store.findRequestByPaymentReference(`0x${"d".repeat(16)}`)).toBeUndefined();
    expect(await store.listEvents()).toEqual([]);
    expect(heard).toEqual([]);
  });

  it("announces a committed transaction's events once, in order, with their sequence", async () => {
    const store = createMemoryStore();
    const heard: DomainEvent[][] = [];
    store.onEventsCommitted((events) => heard.push(events));
    await store.withTransaction(async (tx) => {
      await tx.appendEvent({ type: "request.created", occurredAt: "t1", data: { n: 1 } });
      await tx.appendEvent({ type: "request.created", occurredAt: "t2", data: { n: 2 } });
    });
    expect(heard).toHaveLength(1);
    expect(heard[0]?.map((event) => [event.sequence, event.data.n])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect((await store.listEvents(1)).map((event) => event.sequence)).toEqual([2]);
  });

  it("runs transactions one at a time", async () => {
    const store = createMemoryStore();
    const order: string[] = [];
    const slow = store.withTransaction(async () => {
      order.push("slow start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("slow end");
    });
    const fast = store.withTransaction(async () => {
      order.push("fast");
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(["slow start", "slow end", "fast"]);
  });

  it("keeps payee destinations per account, and finds a wallet's active one in any letter case", async () => {
    const store = createMemoryStore();
    const wallet = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
    const destination = (
      accountId: string,
      destinationId: string,
      active: boolean,
    ): PayeeDestinationRecord => ({
      accountId,
      destinationId,
      walletAddress: wallet,
      chainId: 11155111,
      network: "sepolia",
      tokenAddress: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
      active,
      createdAt: "2026-04-12T10:00:00.000Z",
      updatedAt: "2026-04-12T10:00:00.000Z",
      deactivatedAt: active ? null : "2026-04-12T10:00:00.000Z",
    });
    await store.putPayeeDestination(destination("acct", "old", false));
    await store.putPayeeDestination(destination("acct", "current", true));
    await store.putPayeeDestination(destination("acct_other", "theirs", true));
    expect((await store.findActivePayeeDestination("acct", wallet.toLowerCase()))?.destinationId).toBe(
      "current",
    );
    expect(await store.getPayeeDestination("acct", "theirs")).toBeUndefined();
    expect((await store.getPayeeDestination("acct_other", "theirs"))?.active).toBe(true);
    const nonce: PayeeDestinationNonceRecord = {
      nonce: "n1",
      accountId: "acct",
      action: "add",
      destinationId: "current",
      walletAddress: wallet,
      typedData: "{}",
      expiresAt: "2026-04-12T10:10:00.000Z",
      usedAt: null,
    };
    // A change undone by a failing transaction leaves the nonce unused.
    await store.putPayeeDestinationNonce(nonce);
    await expect(
      store.withTransaction(async (tx) => {
        await tx.putPayeeDestinationNonce({ ...nonce, usedAt: "2026-04-12T10:01:00.000Z" });
        throw new Error("signature refused");
      }),
    ).rejects.toThrow("signature refused");
    expect((await store.getPayeeDestinationNonce("n1"))?.usedAt).toBeNull();
  });
});
