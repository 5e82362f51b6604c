import { sampleCredentials } from "../../src/server/config/sandbox-config.ts";
import type { LoadRequest } from "./load.ts";

const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const apiKeyHeaders = { "x-api-key": sampleCredentials.apiKey };
const jsonHeaders = { ...apiKeyHeaders, "content-type": "application/json" };
const item = (amount: string) => ({ payee, amount, invoiceCurrency: "USD", paymentCurrency: "USDC-base" });

/** The same operations are sent to every target, so that the ratios compare like with like. */
export const listCurrencies: LoadRequest = {
  method: "GET",
  path: "/v1/currencies?network=sepolia",
  headers: apiKeyHeaders,
};

export const createSecurePayment: LoadRequest = {
  method: "POST",
  path: "/v2/secure-payments",
  headers: jsonHeaders,
  body: JSON.stringify({ requests: [item("125.00")] }),
};

export const batchOf100Payees: LoadRequest = {
  method: "POST",
  path: "/v2/payouts/batch",
  headers: jsonHeaders,
  body: JSON.stringify({
    requests: Array.from({ length: 100 }, (_, index) => item(`${index + 1}.25`)),
  }),
};

export interface HostileBody extends LoadRequest {
  /** What the server answers it: refused (400), or, for unknown members the server drops unread, created. */
  expectStatus: number;
}

const withUnknownMembers = (count: number) =>
  JSON.stringify({
    requests: [
      { ...item("125.00"), ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 0])) },
    ],
  });

/**
 * Item 3 of the performance issue: bodies within the size limit that once kept the validator
 * busy, the body limit filled with the values that cost the most to parse or to check, and the
 * most unknown members a body may hold, which the server as shipped (without strictBodies) drops.
 */
export const hostileBodies: Record<string, HostileBody> = {
  "100,000 empty items (300 KB)": {
    method: "POST",
    path: "/v2/secure-payments",
    headers: jsonHeaders,
    body: `{"requests":[${new Array(100_000).fill("{}").join(",")}]}`,
    expectStatus: 400,
  },
  "349,520 empty items (1 MiB)": {
    method: "POST",
    path: "/v2/secure-payments",
    headers: jsonHeaders,
    body: `{"requests":[${new Array(349_520).fill("{}").join(",")}]}`,
    expectStatus: 400,
  },
  "85,000 unknown fields of one item (0.9 MB)": {
    method: "POST",
    path: "/v2/secure-payments",
    headers: jsonHeaders,
    body: withUnknownMembers(85_000),
    expectStatus: 400,
  },
  // ajv-formats' date-time split such a text at every space: a million strings.
  "1 MiB of spaces as the sandbox clock's time": {
    method: "POST",
    path: "/sandbox/clock",
    headers: jsonHeaders,
    body: JSON.stringify({ now: " ".repeat(1_048_000) }),
    expectStatus: 400,
  },
  "9,000 unknown fields of one item (89 KB), dropped": {
    method: "POST",
    path: "/v2/secure-payments",
    headers: jsonHeaders,
    body: withUnknownMembers(9_000),
    expectStatus: 201,
  },
};
