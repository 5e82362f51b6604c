import { describe, expect, it } from "vitest";
import { buildRouteTable, type RouteMatch } from "../../src/server/http/route-table.ts";
import { readPathOperations } from "../../src/spec/operations.ts";

const routes = buildRouteTable(readPathOperations());

/** A match as operationId and parameters, or its kind and allowed methods. */
function summary(match: RouteMatch) {
  if (match.kind === "operation") return { operationId: match.route.operationId, params: match.params };
  return match.kind === "wrong-method" ? { allowed: [...match.allowed].sort() } : { kind: match.kind };
}

describe("the route table", () => {
  it.each([
    ["GET", "/v1/currencies", { operationId: "listCurrencies", params: {} }],
    ["POST", "/v2/secure-payments", { operationId: "createSecurePayment", params: {} }],
    ["POST", "/v2/secure-payments/payouts", { operationId: "createPayoutSecurePayment", params: {} }],
    // A literal path's template has no GET, the parameter template of the same length has.
    [
      "GET",
      "/v2/secure-payments/payouts",
      { operationId: "checkSecurePaymentToken", params: { token: "payouts" } },
    ],
    [
      "GET",
      "/v2/secure-payments/01KP0J4H80ABC",
      { operationId: "checkSecurePaymentToken", params: { token: "01KP0J4H80ABC" } },
    ],
    ["GET", "/v2/request/a%20b/pay", { operationId: "getPayCalldata", params: { requestId: "a b" } }],
    ["HEAD", "/v1/currencies", { operationId: "listCurrencies", params: {} }],
    ["DELETE", "/v1/currencies", { allowed: ["GET", "HEAD"] }],
    ["GET", "/v2/payouts/batch", { allowed: ["POST"] }],
    ["GET", "/v1/nothing-here", { kind: "no-path" }],
    ["GET", "/v2/request/%E0%A4%A/pay", { kind: "no-path" }],
  ])("%s %s finds %j", (method, path, expected) => {
    expect(summary(routes.match(method, path))).toEqual(expected);
  });
});
