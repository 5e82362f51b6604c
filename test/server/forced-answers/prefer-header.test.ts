import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestText } from "../../../src/net/http-request.ts";
import { specExample } from "../../../src/spec/spec-document.ts";
import { apiKey, browserOrigin, problemErrors, startTestServer, type TestServer } from "../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const prefer = (value: string) => ({ headers: { prefer: value } });
const clientIdBody = specExample("ClientIdCreateRequest");

describe("Prefer: code and example on the reference server", () => {
  it("answers the success status's first example when only the code is given, and creates nothing", async () => {
    const before = await server.call("GET", "/v2/client-ids");
    const forced = await server.call("POST", "/v2/client-ids", { body: clientIdBody, ...prefer("code=201") });
    expect(forced.status).toBe(201);
    expect(forced.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(forced.body).toEqual(specExample("ClientIdCreated"));
    const after = await server.call("GET", "/v2/client-ids");
    expect(after.body).toEqual(before.body);
  });

  it("answers a named example of the success status", async () => {
    const answer = await server.call("GET", "/v1/currencies", prefer("example=firstUsdcOnBase"));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(specExample("CurrencyUsdcBase"));
  });

  it("answers a documented error status with its Problem example", async () => {
    const answer = await server.call("GET", "/v2/client-ids/ci_unused", prefer("code=404"));
    expect(problemErrors(answer, "/problems/not-found", 404)).toEqual([]);
    expect(answer.body).toEqual(specExample("ProblemNotFound"));
  });

  it("answers 429 with the documented headers' example values", async () => {
    const answer = await server.call("GET", "/v1/currencies", prefer("code=429"));
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual(specExample("ProblemRateLimited"));
    expect(answer.headers.get("retry-after")).toBe("12");
    expect(answer.headers.get("ratelimit-limit")).toBe("300");
    expect(answer.headers.get("ratelimit-remaining")).toBe("0");
    expect(answer.headers.get("ratelimit-reset")).toBe("12");
    expect(answer.headers.get("x-request-id")).not.toBe("0f8e5b8a-3c1d-4f7e-9a51-2b6c8d4e1f30");
  });

  it("combines a code with an example name, quoted or not, among other preferences", async () => {
    const answer = await server.call("POST", "/v2/client-ids", {
      body: clientIdBody,
      ...prefer('return=minimal, code=400, example="feeWithoutAddress"'),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(specExample("ClientIdProblemFeeWithoutAddress"));
  });

  it("answers the service's own error shape when Accept asks for application/json", async () => {
    const answer = await requestText(new URL(`${server.url}/v2/client-ids/ci_unused`), {
      method: "GET",
      headers: { "x-api-key": apiKey, prefer: "code=404", accept: "application/json" },
      timeoutMs: 30_000,
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.text)).toEqual(specExample("ServiceErrorNotFound"));
  });

  it("answers a status documented without content with no body", async () => {
    const answer = await server.call("DELETE", "/sandbox/webhooks/endpoints/whe_unused", prefer("code=204"));
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
  });

  it("sends no webhook for a forced test delivery", async () => {
    const endpoint = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "https://hooks.example.com/payreq" },
    });
    expect(endpoint.status).toBe(201);
    const forced = await server.call("POST", `/sandbox/webhooks/endpoints/${endpoint.body.id}/test`, {
      body: { eventType: "payment.confirmed" },
      ...prefer("code=202"),
    });
    expect(forced.status).toBe(202);
    expect(forced.body).toEqual(specExample("SandboxWebhookDeliveryTestPending"));
    const deliveries = await server.call("GET", "/sandbox/webhooks/deliveries");
    expect(deliveries.body.deliveries ?? deliveries.body).toEqual([]);
  });

  it("refuses a status the operation does not document with 400 naming the header and listing the statuses", async () => {
    const answer = await server.call("GET", "/v1/currencies", prefer("code=409"));
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/headers/prefer",
        message:
          "code=409 is not a status listCurrencies documents; use one of 200, 400, 401, 403, 404, 429, 500, 503",
      },
    ]);
  });

  it("refuses an example the status does not have with 400 listing its examples", async () => {
    const answer = await server.call("GET", "/v1/currencies", prefer("code=400, example=missing-field"));
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/headers/prefer",
        message:
          'example=missing-field is not an example of listCurrencies\'s 400 answer; use one of "firstOnlyInvalid", "serviceInvalid"',
      },
    ]);
  });

  it("answers a browser's client-ID call too, whose preflight allows the header", async () => {
    const preflight = await server.call("OPTIONS", "/v1/currencies", {
      auth: "none",
      headers: {
        origin: browserOrigin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-client-id, prefer",
      },
    });
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Prefer");
    const answer = await server.call("GET", "/v1/currencies", { auth: "clientId", ...prefer("code=503") });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual(specExample("ProblemServiceUnavailable"));
    expect(answer.headers.get("retry-after")).toBe("12");
  });

  it("still answers 401 to a request without a credential", async () => {
    const answer = await server.call("GET", "/v1/currencies", { auth: "none", ...prefer("code=200") });
    problemErrors(answer, "/problems/unauthorized", 401);
  });

  it("still answers 400 to an invalid request, as Prism does", async () => {
    const answer = await server.call("POST", "/v2/client-ids", { body: { label: 5 }, ...prefer("code=201") });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toContain(
      "/body/label",
    );
  });

  it("runs the operation when Prefer names neither a code nor an example", async () => {
    const answer = await server.call("GET", "/v2/client-ids/ci_unknown_one", prefer("return=minimal"));
    expect(answer.body.detail).not.toBe(specExample("ProblemNotFound"));
    problemErrors(answer, "/problems/not-found", 404);
  });
});
