import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiError,
  type BatchPayout,
  type Currency,
  createPayreqClient,
  type NormalisedBatchPayout,
  normaliseBatchPayout,
  normaliseWebhookEvent,
  type PaymentConfirmedEvent,
  type PayreqClient,
  type Problem,
  type SecurePayment,
  type ServiceError,
  type Transaction,
  transactionValueToBigInt,
  unwrap,
} from "../../src/index.ts";

declare const client: PayreqClient;
const baseUrl = "https://api.payreq.test";
const requestId = "015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9";
const item = {
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  amount: "125.00",
  invoiceCurrency: "USD",
  paymentCurrency: "USDC-base",
};

describe("createPayreqClient options", () => {
  it("take an API key, or a client ID with its origin", () => {
    expectTypeOf(createPayreqClient({ baseUrl, apiKey: "k" })).toEqualTypeOf<PayreqClient>();
    expectTypeOf(
      createPayreqClient({ baseUrl, clientId: "c", origin: "https://shop.example" }),
    ).toEqualTypeOf<PayreqClient>();
    createPayreqClient({
      baseUrl,
      apiKey: "k",
      fetch: async (request: Request) => new Response(request.url),
    });
    createPayreqClient({ baseUrl, apiKey: "k", fetch: globalThis.fetch, headers: { "x-trace-id": "t" } });
    createPayreqClient({ baseUrl, apiKey: "k", retry: { retries: 2, baseDelayMs: 100, maxDelayMs: 2_000 } });
  });

  it("refuse both credential kinds, none, or a client ID without origin", () => {
    // @ts-expect-error both credential kinds
    createPayreqClient({ baseUrl, apiKey: "k", clientId: "c", origin: "https://shop.example" });
    // @ts-expect-error an API key with an origin
    createPayreqClient({ baseUrl, apiKey: "k", origin: "https://shop.example" });
    // @ts-expect-error no credential
    createPayreqClient({ baseUrl });
    // @ts-expect-error a client ID without its origin
    createPayreqClient({ baseUrl, clientId: "c" });
    // @ts-expect-error no base URL
    createPayreqClient({ apiKey: "k" });
    // @ts-expect-error retry settings are numbers
    createPayreqClient({ baseUrl, apiKey: "k", retry: { retries: "3" } });
  });
});

describe("calls", () => {
  it("accept only the spec's paths and methods", () => {
    // @ts-expect-error no such path
    client.GET("/v1/currency", {});
    // @ts-expect-error the path has no GET
    client.GET("/v2/secure-payments", {});
    // @ts-expect-error the path has no DELETE
    client.DELETE("/v2/payouts/recurring/{id}", { params: { path: { id: "01JXYJKCAHGFTDR15F2D072ESG" } } });
  });

  it("require path and required query parameters, typed", () => {
    client.GET("/v2/request/{requestId}/pay", { params: { path: { requestId } } });
    // @ts-expect-error the path parameter is missing
    client.GET("/v2/request/{requestId}/pay", {});
    // @ts-expect-error the whole init is missing
    client.GET("/v2/request/{requestId}/pay");
    // @ts-expect-error a misspelt path parameter
    client.GET("/v2/request/{requestId}/pay", { params: { path: { requestID: requestId } } });
    client.GET("/v1/request/{paymentReference}/routes", {
      params: { path: { paymentReference: "0xb3581f0b0f74cc61" }, query: { wallet: item.payee } },
    });
    const noWallet = { path: { paymentReference: "0xb3581f0b0f74cc61" } };
    // @ts-expect-error `wallet` is a required query parameter
    client.GET("/v1/request/{paymentReference}/routes", { params: noWallet });
    // @ts-expect-error firstOnly is the string "true" or "false"
    client.GET("/v1/currencies", { params: { query: { firstOnly: true } } });
    const polygon = { path: { requestId }, query: { chain: "POLYGON" as const } };
    // @ts-expect-error chain is one of the spec's enum values
    client.GET("/v2/request/{requestId}/pay", { params: polygon });
  });

  it("require a body of the spec's type", () => {
    client.POST("/v2/secure-payments", { body: { requests: [item], reference: "ORDER-1" } });
    // @ts-expect-error the body is required
    client.POST("/v2/secure-payments", {});
    // @ts-expect-error `requests` is a list
    client.POST("/v2/secure-payments", { body: { requests: item } });
    // @ts-expect-error `amount` is a decimal string, not a number
    client.POST("/v2/secure-payments", { body: { requests: [{ ...item, amount: 125 }] } });
    // @ts-expect-error `requests` is required
    client.POST("/v2/secure-payments", { body: { reference: "ORDER-1" } });
    const recurring = { path: { id: "01JXYJKCAHGFTDR15F2D072ESG" } };
    // @ts-expect-error the action is cancel or unpause
    client.PATCH("/v2/payouts/recurring/{id}", { params: recurring, body: { action: "pause" } });
  });

  it("type the data and the error of each answer: a Problem, or the real service's own error body", async () => {
    const currencies = await client.GET("/v1/currencies");
    expectTypeOf(currencies.data).toEqualTypeOf<Currency[] | Currency | undefined>();
    expectTypeOf(currencies.error).toEqualTypeOf<Problem | ServiceError | undefined>();
    if (currencies.error && "type" in currencies.error) {
      expectTypeOf(currencies.error.errors).toEqualTypeOf<Problem["errors"]>();
    }
    const created = await client.POST("/v2/secure-payments", { body: { requests: [item] } });
    expectTypeOf(created.data).toEqualTypeOf<SecurePayment | undefined>();
    expectTypeOf(created.response).toEqualTypeOf<Response>();
  });
});

describe("unwrap and ApiError", () => {
  it("unwrap returns the success data type", async () => {
    expectTypeOf(unwrap(await client.GET("/v1/currencies"))).toEqualTypeOf<Currency[] | Currency>();
    expectTypeOf(
      unwrap(await client.POST("/v2/secure-payments", { body: { requests: [item] } })),
    ).toEqualTypeOf<SecurePayment>();
  });

  it("ApiError carries the problem fields", () => {
    expectTypeOf<ApiError["status"]>().toEqualTypeOf<number>();
    expectTypeOf<ApiError["requestId"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApiError["errors"]>().toEqualTypeOf<NonNullable<Problem["errors"]>>();
    expectTypeOf<ApiError>().toExtend<Error>();
  });
});

describe("normalisers", () => {
  it("transactionValueToBigInt takes the spec's value forms and returns a bigint", () => {
    expectTypeOf(transactionValueToBigInt(0)).toEqualTypeOf<bigint>();
    transactionValueToBigInt("0x0");
    transactionValueToBigInt({ type: "BigNumber", hex: "0x2386f26fc10000" });
    // @ts-expect-error a boolean is no transaction value
    transactionValueToBigInt(true);
    // @ts-expect-error the BigNumber form is tagged
    transactionValueToBigInt({ type: "Big", hex: "0x1" });
  });

  it("normaliseBatchPayout gives approvals and payments as spec transactions", () => {
    expectTypeOf(normaliseBatchPayout({})).toEqualTypeOf<NormalisedBatchPayout>();
    expectTypeOf<NormalisedBatchPayout["payments"]>().toEqualTypeOf<Transaction[]>();
    expectTypeOf<BatchPayout>().not.toBeUnknown();
  });

  it("normaliseWebhookEvent gives one required requestId to request events and narrows on event", () => {
    const event = normaliseWebhookEvent({});
    expectTypeOf(event.event).toEqualTypeOf<
      | "payment.confirmed"
      | "payment.partial"
      | "payment.failed"
      | "payment.processing"
      | "payment.refunded"
      | "request.recurring"
      | "compliance.updated"
      | "payment_detail.updated"
    >();
    expectTypeOf(event).not.toHaveProperty("requestID");
    if (event.event === "compliance.updated") {
      expectTypeOf(event.clientUserId).toEqualTypeOf<string>();
      expectTypeOf(event.requestId).toEqualTypeOf<string | undefined>();
    } else if (event.event === "payment_detail.updated") {
      expectTypeOf(event.status).toEqualTypeOf<"approved" | "verified" | "pending" | "failed">();
    } else {
      expectTypeOf(event.requestId).toEqualTypeOf<string>();
      if (event.event === "payment.failed") {
        expectTypeOf(event.subStatus).toEqualTypeOf<string | undefined>();
        expectTypeOf(event).not.toHaveProperty("fees");
      } else if (event.event === "request.recurring") {
        expectTypeOf(event.originalRequestId).toEqualTypeOf<string>();
      } else if (event.event === "payment.confirmed") {
        expectTypeOf(event.totalAmountPaid).toEqualTypeOf<string | undefined>();
        expectTypeOf(event.recurringPayment?.id).toEqualTypeOf<string | undefined>();
      }
    }
    expectTypeOf<PaymentConfirmedEvent>().not.toBeUnknown();
    expectTypeOf<PaymentConfirmedEvent["event"]>().toEqualTypeOf<"payment.confirmed">();
  });
});
