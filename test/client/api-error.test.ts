import { describe, expect, it } from "vitest";
import { ApiError, createPayreqClient, PayreqError, toApiError, unwrap } from "../../src/index.ts";
import { baseUrl, jsonResponse, problemResponse, specExample, stubFetch } from "./fetch-stub.ts";

function clientAnswering(response: Response) {
  return createPayreqClient({ baseUrl, apiKey: "sk_test_123", fetch: stubFetch(response).fetch });
}

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("unwrap", () => {
  it("returns the data of a success", async () => {
    const client = clientAnswering(jsonResponse(200, specExample("CurrencyListUsdcBase")));
    const currencies = unwrap(await client.GET("/v1/currencies", { params: { query: { symbol: "USDC" } } }));
    expect(currencies).toEqual(specExample("CurrencyListUsdcBase"));
  });

  it("throws an ApiError with the problem's fields and the X-Request-Id header", async () => {
    const client = clientAnswering(
      problemResponse(400, specExample("ProblemValidationFailed"), {
        "X-Request-Id": "01JXYJKCAHGFTDR15F2D072ESG",
      }),
    );
    const error = await thrownBy(
      client.POST("/v2/secure-payments", { body: { requests: [] } }).then((result) => unwrap(result)),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(PayreqError);
    expect(error).toMatchObject({
      name: "ApiError",
      status: 400,
      type: "/problems/validation-failed",
      title: "Validation failed",
      detail: "2 fields are invalid: /body/requests/0/amount, /body/requests/0/payee.",
      instance: "/v2/secure-payments",
      requestId: "01JXYJKCAHGFTDR15F2D072ESG",
      errors: [
        { path: "/body/requests/0/amount", message: 'must be a decimal amount such as 12.50, got "12,50"' },
        { path: "/body/requests/0/payee", message: "must be an EVM address (0x and 40 hex digits)" },
      ],
      body: specExample("ProblemValidationFailed"),
    });
    expect((error as ApiError).shortMessage).toBe("The service answered 400 Validation failed.");
    expect((error as ApiError).message).toBe(
      [
        "The service answered 400 Validation failed.",
        "",
        "Type: /problems/validation-failed",
        "Request ID: 01JXYJKCAHGFTDR15F2D072ESG",
        '- /body/requests/0/amount: must be a decimal amount such as 12.50, got "12,50"',
        "- /body/requests/0/payee: must be an EVM address (0x and 40 hex digits)",
        "",
        "Details: 2 fields are invalid: /body/requests/0/amount, /body/requests/0/payee.",
      ].join("\n"),
    );
  });

  it("takes the request id from the body when the header is missing", async () => {
    const client = clientAnswering(problemResponse(404, specExample("ProblemNotFound")));
    const error = (await thrownBy(
      client.GET("/v2/client-ids/{id}", { params: { path: { id: "ci_1" } } }).then(unwrap),
    )) as ApiError;
    expect(error.status).toBe(404);
    expect(error.requestId).toBe("0f8e5b8a-3c1d-4f7e-9a51-2b6c8d4e1f30");
    expect(error.errors).toEqual([]);
  });

  it("throws for an error answer without a body, with the reason phrase as title", async () => {
    const client = clientAnswering(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    const error = (await thrownBy(client.GET("/v1/currencies").then(unwrap))) as ApiError;
    expect(error.status).toBe(503);
    expect(error.title).toBe("Service Unavailable");
    expect(error.body).toBeUndefined();
    expect(error.shortMessage).toBe("The service answered 503 Service Unavailable.");
  });
});

describe("toApiError with the service's older error bodies", () => {
  const response = (status: number) => new Response(null, { status });

  it("reads {statusCode, message, error} with a list of issues", () => {
    const error = toApiError({
      error: {
        statusCode: 400,
        error: "Bad Request",
        message: [
          {
            code: "invalid_type",
            message: "Expected string, received number",
            path: ["requests", 0, "amount"],
          },
        ],
      },
      response: response(400),
    });
    expect(error.title).toBe("Bad Request");
    expect(error.detail).toBeUndefined();
    expect(error.errors).toEqual([
      { path: "/requests/0/amount", message: "Expected string, received number" },
    ]);
  });

  it("reads {message, errors: [{field, message}]}", () => {
    const error = toApiError({
      error: {
        message: "Validation failed",
        errors: [{ field: "wallet", message: "wallet must be an address" }],
      },
      response: response(400),
    });
    expect(error.detail).toBe("Validation failed");
    expect(error.errors).toEqual([{ path: "wallet", message: "wallet must be an address" }]);
  });

  it("keeps a text body as the detail", () => {
    const error = toApiError({ error: "upstream timeout", response: response(502) });
    expect(error.detail).toBe("upstream timeout");
    expect(error.details).toBe("upstream timeout");
  });
});

describe("PayreqError cause chain", () => {
  it("walks to the root cause, or to the first error a predicate accepts", () => {
    const root = new TypeError("fetch failed");
    const middle = new PayreqError("Could not list currencies.", { cause: root });
    const top = new PayreqError("Checkout failed.", { cause: middle });
    expect(top.walk()).toBe(root);
    expect(top.walk((error) => error instanceof TypeError)).toBe(root);
    expect(top.walk((error) => error instanceof RangeError)).toBeNull();
    expect(middle.details).toBe("fetch failed");
    expect(top.details).toBe("fetch failed");
    expect(top.cause).toBe(middle);
    expect(top.message).toBe("Checkout failed.\n\nDetails: fetch failed");
  });
});
