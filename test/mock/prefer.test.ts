import { beforeAll, describe, expect, it } from "vitest";
import { specExample } from "../../src/spec/spec-document.ts";
import { type SharedPrism, sharedPrism } from "../support/shared-prism.ts";

let prism: SharedPrism;
beforeAll(async () => {
  prism = await sharedPrism();
});

/** A call to the mock with an API key and a `Prefer` header. */
function callWithPrefer(method: string, path: string, prefer: string, headers: Record<string, string> = {}) {
  return fetch(`${prism.baseUrl}${path}`, {
    method,
    headers: { "x-api-key": "any", prefer, ...headers },
  });
}

describe("the Prism mock reads Prefer as the reference server does", () => {
  it("answers a named example of the success status", async () => {
    const answer = await callWithPrefer("GET", "/v1/currencies", "example=firstUsdcOnBase");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(specExample("CurrencyUsdcBase"));
  });

  it("answers a documented error status with its first Problem example", async () => {
    const answer = await callWithPrefer("GET", "/v2/client-ids/ci_1", "code=404", { accept: "*/*" });
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toEqual(specExample("ProblemNotFound"));
  });

  it("answers 429 with the documented headers' example values", async () => {
    const answer = await callWithPrefer("GET", "/v1/currencies", "code=429");
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("12");
    expect(await answer.json()).toEqual(specExample("ProblemRateLimited"));
  });

  it("combines a code and an example name", async () => {
    const answer = await callWithPrefer("GET", "/v1/currencies", "code=400, example=firstOnlyInvalid");
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(specExample("CurrencyProblemFirstOnlyInvalid"));
  });

  it("still answers 401 without a credential", async () => {
    const answer = await fetch(`${prism.baseUrl}/v1/currencies`, { headers: { prefer: "code=200" } });
    expect(answer.status).toBe(401);
  });

  it("refuses a status the operation does not document, in Prism's own words (the server answers 400)", async () => {
    const answer = await callWithPrefer("GET", "/v1/currencies", "code=409");
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { detail: string }).detail).toBe(
      "Requested status code 409 is not defined in the document.",
    );
  });
});
