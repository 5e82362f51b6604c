import { describe, expect, it } from "vitest";
import { createPayreqClient, InvalidValueError, type PayreqClientOptions } from "../../src/index.ts";
import { baseUrl, jsonResponse, problemResponse, specExample, stubFetch } from "./fetch-stub.ts";

const requestId = "015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9";

describe("createPayreqClient authentication", () => {
  it("sends the API key as x-api-key and nothing else", async () => {
    const stub = stubFetch(jsonResponse(200, specExample("CurrencyListUsdcBase")));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    await client.GET("/v1/currencies");
    expect(stub.sent[0]?.headers["x-api-key"]).toBe("sk_test_123");
    expect(stub.sent[0]?.headers).not.toHaveProperty("x-client-id");
    expect(stub.sent[0]?.headers).not.toHaveProperty("origin");
  });

  it("sends a client ID as x-client-id with the Origin header", async () => {
    const stub = stubFetch(jsonResponse(200, specExample("CurrencyListUsdcBase")));
    const client = createPayreqClient({
      baseUrl,
      clientId: "cid_live_4f1c2e",
      origin: "https://shop.example.com",
      fetch: stub.fetch,
    });
    await client.GET("/v1/currencies");
    expect(stub.sent[0]?.headers["x-client-id"]).toBe("cid_live_4f1c2e");
    expect(stub.sent[0]?.headers.origin).toBe("https://shop.example.com");
    expect(stub.sent[0]?.headers).not.toHaveProperty("x-api-key");
  });

  it("adds extra headers, but never lets them replace the credential", async () => {
    const stub = stubFetch(jsonResponse(200, []));
    const client = createPayreqClient({
      baseUrl,
      apiKey: "sk_test_123",
      fetch: stub.fetch,
      headers: { "x-trace-id": "trace-7", "x-api-key": "other" },
    });
    await client.GET("/v1/currencies");
    expect(stub.sent[0]?.headers["x-trace-id"]).toBe("trace-7");
    expect(stub.sent[0]?.headers["x-api-key"]).toBe("sk_test_123");
  });

  it("uses the global fetch when none is given", async () => {
    const original = globalThis.fetch;
    const stub = stubFetch(jsonResponse(200, []));
    globalThis.fetch = stub.fetch as typeof globalThis.fetch;
    try {
      const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123" });
      await client.GET("/v1/currencies");
    } finally {
      globalThis.fetch = original;
    }
    expect(stub.sent.map((request) => request.url)).toEqual([`${baseUrl}/v1/currencies`]);
  });
});

describe("createPayreqClient and the Auth API", () => {
  it("sends the Auth API's operations to authBaseUrl, and the Request API's to baseUrl", async () => {
    const stub = stubFetch(jsonResponse(200, []), jsonResponse(200, specExample("WebhookDisabled")));
    const client = createPayreqClient({
      baseUrl,
      authBaseUrl: "https://auth.example.com",
      clientId: "cid_live_4f1c2e",
      origin: "https://shop.example.com",
      fetch: stub.fetch,
    });
    await client.GET("/v1/currencies");
    await client.PUT("/v1/webhook/{webhookId}", { params: { path: { webhookId: "we_1" } } });
    expect(stub.sent.map((request) => [request.method, request.url, request.headers["x-client-id"]])).toEqual(
      [
        ["GET", `${baseUrl}/v1/currencies`, "cid_live_4f1c2e"],
        ["PUT", "https://auth.example.com/v1/webhook/we_1", "cid_live_4f1c2e"],
      ],
    );
  });

  it("sends both to baseUrl when no authBaseUrl is given, and refuses one that is not an http(s) URL", async () => {
    const stub = stubFetch(jsonResponse(200, specExample("AuthHealthOk")));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    await client.GET("/v1/health");
    expect(stub.sent[0]?.url).toBe(`${baseUrl}/v1/health`);
    expect(() =>
      createPayreqClient({ baseUrl, authBaseUrl: "ftp://auth.example.com", apiKey: "sk_test_123" }),
    ).toThrow(InvalidValueError);
  });
});

describe("createPayreqClient requests and answers", () => {
  it("serialises the query and returns the typed data", async () => {
    const stub = stubFetch(jsonResponse(200, specExample("CurrencyUsdcBase")));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    const { data, error, response } = await client.GET("/v1/currencies", {
      params: { query: { network: "base", firstOnly: "true" } },
    });
    expect(stub.sent[0]?.method).toBe("GET");
    expect(stub.sent[0]?.url).toBe(`${baseUrl}/v1/currencies?network=base&firstOnly=true`);
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual(specExample("CurrencyUsdcBase"));
  });

  it("fills path parameters and keeps a base URL path prefix", async () => {
    const stub = stubFetch(jsonResponse(200, specExample("PayCalldataNative")));
    const client = createPayreqClient({
      baseUrl: `${baseUrl}/api/`,
      apiKey: "sk_test_123",
      fetch: stub.fetch,
    });
    await client.GET("/v2/request/{requestId}/pay", {
      params: { path: { requestId }, query: { wallet: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7" } },
    });
    expect(stub.sent[0]?.url).toBe(
      `${baseUrl}/api/v2/request/${requestId}/pay?wallet=0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7`,
    );
  });

  it("sends a JSON body and returns the created resource", async () => {
    const created = specExample("SecurePaymentCreated");
    const stub = stubFetch(jsonResponse(201, created));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    const body = {
      requests: [
        {
          payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
          amount: "125.00",
          invoiceCurrency: "USD",
          paymentCurrency: "USDC-base",
        },
      ],
    };
    const { data } = await client.POST("/v2/secure-payments", { body });
    expect(stub.sent[0]?.method).toBe("POST");
    expect(stub.sent[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(stub.sent[0]?.body ?? "")).toEqual(body);
    expect(data).toEqual(created);
  });

  it("returns a problem+json error answer as the typed error", async () => {
    const problem = specExample("ProblemNotFound");
    const stub = stubFetch(problemResponse(404, problem, { "x-request-id": "req-42" }));
    const client = createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stub.fetch });
    const { data, error, response } = await client.GET("/v2/client-ids/{id}", {
      params: { path: { id: "ci_1" } },
    });
    expect(data).toBeUndefined();
    expect(error).toEqual(problem);
    expect(error && "type" in error ? error.type : undefined).toBe("/problems/not-found");
    expect(response.headers.get("x-request-id")).toBe("req-42");
  });
});

describe("createPayreqClient options", () => {
  const cases: [string, unknown, string][] = [
    [
      "both credential kinds",
      { baseUrl, apiKey: "sk_secret_value", clientId: "cid", origin: "https://shop.example" },
      "Invalid credentials: expected either apiKey, or clientId with origin, got both an apiKey and a clientId or origin.",
    ],
    [
      "no credential",
      { baseUrl },
      "Invalid credentials: expected an apiKey, or a clientId with its origin, got neither.",
    ],
    [
      "an empty API key",
      { baseUrl, apiKey: "" },
      "Invalid apiKey: expected a non-empty string, got an empty string.",
    ],
    [
      "a numeric API key",
      { baseUrl, apiKey: 42 },
      "Invalid apiKey: expected a non-empty string, got a number.",
    ],
    [
      "a client ID without origin",
      { baseUrl, clientId: "cid" },
      "Invalid origin: expected an origin: scheme, host and optional port, such as https://shop.example, got undefined.",
    ],
    [
      "an origin with a path",
      { baseUrl, clientId: "cid", origin: "https://shop.example/checkout" },
      'Invalid origin: expected an origin: scheme, host and optional port, such as https://shop.example (did you mean https://shop.example?), got "https://shop.example/checkout".',
    ],
    [
      "a relative base URL",
      { baseUrl: "/v1", apiKey: "k" },
      'Invalid baseUrl: expected an http(s) URL such as https://api.example.com, got "/v1".',
    ],
    [
      "a non-HTTP base URL",
      { baseUrl: "ftp://api.example.com", apiKey: "k" },
      'Invalid baseUrl: expected an http(s) URL such as https://api.example.com, got "ftp://api.example.com".',
    ],
  ];

  it.each(cases)("rejects %s with a message naming the field", (_name, options, message) => {
    let thrown: unknown;
    try {
      createPayreqClient(options as PayreqClientOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidValueError);
    expect((thrown as InvalidValueError).shortMessage).toBe(message);
    expect((thrown as Error).message).not.toContain("sk_secret_value");
  });
});
