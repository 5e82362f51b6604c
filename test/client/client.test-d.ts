import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiError,
  type BatchPayout,
  type ClientId,
  type ClientIdList,
  type ConversionRoutes,
  type Currency,
  createPayreqClient,
  type MulticallPayout,
  type MulticallPayoutChild,
  type MulticallPayoutCreated,
  type NormalisedBatchPayout,
  normaliseBatchPayout,
  normaliseWebhookEvent,
  type PayerAgreementUpdated,
  type PayerCompliance,
  type PaymentConfirmedEvent,
  type PaymentDetailList,
  type PayreqClient,
  type Problem,
  type SecurePayment,
  type SecurePaymentCalldata,
  type SecurePaymentIntent,
  type SecurePaymentLookup,
  type SecurePaymentSingleCalldata,
  type ServiceError,
  type StoredPaymentDetail,
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
    // @ts-expect-error the path has no DELETE
    client.DELETE("/v2/secure-payments", {});
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

describe("the v2 payer, client-ID, currency and secure-payment operations", () => {
  const clientUserId = "cust-20931";

  it("type the payer's compliance and bank accounts", async () => {
    const status = unwrap(
      await client.GET("/v2/payer/{clientUserId}", { params: { path: { clientUserId } } }),
    );
    expectTypeOf(status).toEqualTypeOf<PayerCompliance>();
    expectTypeOf(status.isCompliant).toEqualTypeOf<boolean>();
    const agreed = await client.PATCH("/v2/payer/{clientUserId}", {
      params: { path: { clientUserId } },
      body: { agreementCompleted: true },
    });
    expectTypeOf(agreed.data).toEqualTypeOf<PayerAgreementUpdated | undefined>();
    const notBoolean = { params: { path: { clientUserId } }, body: { agreementCompleted: "yes" } };
    // @ts-expect-error agreementCompleted is a boolean
    client.PATCH("/v2/payer/{clientUserId}", notBoolean);
    const listed = unwrap(
      await client.GET("/v2/payer/{clientUserId}/payment-details", {
        params: { path: { clientUserId }, query: { paymentDetailsId: "pd_1" } },
      }),
    );
    expectTypeOf(listed).branded.toEqualTypeOf<PaymentDetailList>();
    expectTypeOf(listed.paymentDetails[0]).branded.toEqualTypeOf<StoredPaymentDetail | undefined>();
    // `rails` has a default: it may be left out of the body.
    client.POST("/v2/payer/{clientUserId}/payment-details", {
      params: { path: { clientUserId } },
      body: {
        bankName: "Bank",
        accountName: "Holder",
        beneficiaryType: "individual",
        currency: "EUR",
        addressLine1: "Street 1",
        city: "Berlin",
        country: "DE",
        dateOfBirth: "1988-04-12",
        postalCode: "10115",
      },
    });
  });

  it("type the client-ID operations, null included where a setting can be removed", async () => {
    const created = unwrap(
      await client.POST("/v2/client-ids", {
        body: { label: "Shop", allowedDomains: ["https://shop.example"] },
      }),
    );
    expectTypeOf(created).toEqualTypeOf<ClientId>();
    expectTypeOf(unwrap(await client.GET("/v2/client-ids"))).toEqualTypeOf<ClientIdList>();
    const path = { id: created.id };
    client.PUT("/v2/client-ids/{id}", { params: { path }, body: { feePercentage: null, feeAddress: null } });
    // @ts-expect-error status is active, inactive or revoked
    client.PUT("/v2/client-ids/{id}", { params: { path }, body: { status: "deleted" } });
    // @ts-expect-error allowedDomains is required at creation
    client.POST("/v2/client-ids", { body: { label: "Shop" } });
    const deleted = await client.DELETE("/v2/client-ids/{id}", { params: { path } });
    expectTypeOf(deleted.response).toEqualTypeOf<Response>();
  });

  it("type the v2 currencies like the v1 ones, and the secure-payment lookup and calldata", async () => {
    expectTypeOf(unwrap(await client.GET("/v2/currencies"))).toEqualTypeOf<Currency[] | Currency>();
    const routes = await client.GET("/v2/currencies/{currencyId}/conversion-routes", {
      params: { path: { currencyId: "USD" }, query: { network: "base" } },
    });
    expectTypeOf(routes.data).toEqualTypeOf<ConversionRoutes | undefined>();
    const found = unwrap(await client.GET("/v2/secure-payments", { params: { query: { requestId } } }));
    expectTypeOf(found).toEqualTypeOf<SecurePaymentLookup>();
    // @ts-expect-error requestId is required
    client.GET("/v2/secure-payments", { params: { query: {} } });
    const calldata = unwrap(
      await client.GET("/v2/secure-payments/{token}/pay", {
        params: { path: { token: "01KM9S346Q3D25VT4F5V37E3S3" }, query: { wallet: item.payee } },
      }),
    );
    expectTypeOf(calldata).branded.toEqualTypeOf<SecurePaymentCalldata>();
    if ("paymentType" in calldata)
      expectTypeOf(calldata).branded.toEqualTypeOf<SecurePaymentSingleCalldata>();
    else expectTypeOf(calldata.batchPaymentTransaction).toEqualTypeOf<Transaction>();
  });

  it("type the payout links and their batches like the other secure payments", async () => {
    const payout = unwrap(
      await client.POST("/v2/secure-payments/payouts", {
        body: { recipient: item.payee, network: "base", currency: "USDC-base", amount: "10" },
      }),
    );
    expectTypeOf(payout).toEqualTypeOf<SecurePayment>();
    const withoutRecipient = { network: "base", currency: "USDC-base", amount: "10" };
    // @ts-expect-error recipient is required
    client.POST("/v2/secure-payments/payouts", { body: withoutRecipient });
    const batch = unwrap(
      await client.POST("/v2/secure-payments/batch-payouts", {
        body: { tokens: [payout.token, payout.token] },
      }),
    );
    expectTypeOf(batch).toEqualTypeOf<SecurePayment>();
    // @ts-expect-error tokens is an array
    client.POST("/v2/secure-payments/batch-payouts", { body: { tokens: payout.token } });
  });

  it("type a reported payment, a step refresh and the multicall payout links", async () => {
    const path = { token: "01KM9S346Q3D25VT4F5V37E3S3" };
    const intent = unwrap(
      await client.POST("/v2/secure-payments/{token}/intent", {
        params: { path },
        body: { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" },
      }),
    );
    expectTypeOf(intent).toEqualTypeOf<SecurePaymentIntent>();
    expectTypeOf(intent.isListening).toEqualTypeOf<boolean>();
    const unknownChain = { chain: "SOLANA", token: "USDC" };
    // @ts-expect-error chain is one of the source chains
    client.POST("/v2/secure-payments/{token}/intent", { params: { path }, body: unknownChain });
    const refreshed = await client.POST("/v2/secure-payments/{token}/refresh-step-transaction", {
      params: { path },
      body: {
        step: { id: "s", type: "lifi", tool: "across", action: { toChainId: 8453, toAddress: item.payee } },
      },
    });
    expectTypeOf(refreshed.response).toEqualTypeOf<Response>();
    const created = unwrap(
      await client.POST("/v2/secure-payments/multicall-payouts", {
        body: { childTokens: [path.token, path.token] },
      }),
    );
    expectTypeOf(created).toEqualTypeOf<MulticallPayoutCreated>();
    const state = unwrap(
      await client.GET("/v2/secure-payments/multicall-payouts/{token}", {
        params: { path: { token: created.token } },
      }),
    );
    expectTypeOf(state.canExecute).toEqualTypeOf<MulticallPayout["canExecute"]>();
    expectTypeOf(state.children[0]?.executable).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(state.children[0]?.blockReason).toEqualTypeOf<
      MulticallPayoutChild["blockReason"] | undefined
    >();
    expectTypeOf(state.status).toEqualTypeOf<"pending" | "expired" | "completed" | "partially_settled">();
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
      | "secure_payment.user_event"
      | "client_id.linked"
      | "kyt.screening.completed"
      | "payment.confirmed.client_id"
      | "payment.partial.client_id"
      | "payment.confirmed.checkout"
      | "payment.partial.checkout"
      | "secure_payment.access_rejected"
    >();
    expectTypeOf(event).not.toHaveProperty("requestID");
    if (event.event === "payment.confirmed.client_id") {
      expectTypeOf(event.clientId).toEqualTypeOf<string>();
      expectTypeOf(event.origin).toEqualTypeOf<string | null>();
    }
    if (event.event === "compliance.updated") {
      expectTypeOf(event.clientUserId).toEqualTypeOf<string>();
      expectTypeOf(event.requestId).toEqualTypeOf<string | undefined>();
    } else if (event.event === "payment_detail.updated") {
      expectTypeOf(event.status).toEqualTypeOf<"approved" | "verified" | "pending" | "failed">();
    } else if (event.event === "secure_payment.user_event") {
      expectTypeOf(event.securePaymentToken).toEqualTypeOf<string>();
      expectTypeOf(event.requestIds).toEqualTypeOf<string[]>();
    } else if (event.event === "client_id.linked") {
      expectTypeOf(event.destinationId).toEqualTypeOf<string>();
      expectTypeOf(event.requestId).toEqualTypeOf<undefined>();
    } else if (event.event === "kyt.screening.completed") {
      expectTypeOf(event.status).toEqualTypeOf<"approved" | "rejected">();
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
