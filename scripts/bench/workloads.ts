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
