import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig, sampleCredentials } from "../../src/server/index.ts";
import { createMemoryStore } from "../../src/server/store/memory-store.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { readTypedData } from "../../src/wire/typed-data.ts";
import { createFailingStore } from "../support/failing-store.ts";
import { sessionCookieOf, signChallenge, signInWithWallet, withSession } from "./domain/auth/sign-in.ts";
import { bankAccount, payerRegistration } from "./fixtures.ts";
import {
  type CallOptions,
  payee,
  payer,
  problemErrors,
  startTestServer,
  type TestServer,
} from "./helpers.ts";
import {
  asBrowser,
  destinationPath,
  fauSepolia,
  registerPayeeDestination,
  signPayeeDestination,
} from "./payee-destination-support.ts";

// Every request is atomic: one that fails after its first store write leaves the store exactly as
// it was. For each operation that writes, a failure is forced at each store call after its first
// write in turn, and at the commit of that write.

const wallet = privateKeyToAccount("0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6");

interface Call extends CallOptions {
  method: string;
  path: string;
}

type Setup = (server: TestServer) => Promise<Call>;

let sequence = 0;
const freshUserId = () => `atomic-${++sequence}`;

async function created<T = Record<string, string>>(
  server: TestServer,
  method: string,
  path: string,
  body?: unknown,
) {
  const answer = await server.call(method, path, body === undefined ? {} : { body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body as T;
}

const registered = async (server: TestServer) => {
  const clientUserId = freshUserId();
  await created(server, "POST", "/v2/payer", payerRegistration(clientUserId));
  return clientUserId;
};

const newRequest = (server: TestServer, extra: Record<string, unknown> = {}) =>
  created(server, "POST", "/v2/request", {
    payee,
    amount: "40",
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-base",
    ...extra,
  });

const monthlyPayout = {
  payee,
  amount: "50",
  invoiceCurrency: "USDC-base",
  paymentCurrency: "USDC-base",
  recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 12, payer: wallet.address },
};

/** The call that activates a new recurring payout: its permit, signed by the payer's wallet. */
async function permitSignatureCall(server: TestServer): Promise<Call> {
  const payout = await created<{ id: string; recurringPaymentPermit: string }>(
    server,
    "POST",
    "/v2/payouts",
    monthlyPayout,
  );
  const permitSignature = await wallet.signTypedData(readTypedData(payout.recurringPaymentPermit) as never);
  return { method: "POST", path: `/v2/payouts/recurring/${payout.id}`, body: { permitSignature } };
}

async function activeRecurringPayout(server: TestServer) {
  const activation = await permitSignatureCall(server);
  const { id } = await created(server, activation.method, activation.path, activation.body);
  return id;
}

/** What the payer's wallet sends for a piece of typed data the server issued. */
async function signIssued(typedDataJson: string) {
  const typedData = readTypedData(typedDataJson);
  return {
    signature: await wallet.signTypedData(typedData as never),
    nonce: String(typedData.message.nonce),
    deadline: String(typedData.message.deadline),
  };
}

/** The tokens of two new payout links on Base. */
async function twoPayoutLinks(server: TestServer): Promise<string[]> {
  const link = () =>
    created<{ token: string }>(server, "POST", "/v2/secure-payments/payouts", {
      recipient: payee,
      network: "base",
      currency: "USDC-base",
      amount: "10",
    });
  return [(await link()).token, (await link()).token];
}

// Endpoints point at a receiver that takes every delivery.
let receiver: Server;
let hookTarget: string;
beforeAll(async () => {
  receiver = createHttpServer((_request, response) => response.end());
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookTarget = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

const endpoint = (server: TestServer) =>
  created<{ id: string }>(server, "POST", "/sandbox/webhooks/endpoints", { url: hookTarget });

/** Call options of the sandbox's sample orchestrator. */
const asOrchestrator = {
  auth: "none",
  headers: { "x-orchestrator-key": sampleCredentials.orchestratorKey },
} as const;

async function asOrchestratorCreated<T = Record<string, string>>(
  server: TestServer,
  method: string,
  path: string,
  body?: unknown,
) {
  const answer = await server.call(method, path, {
    ...asOrchestrator,
    ...(body === undefined ? {} : { body }),
  });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body as T;
}

/** The public value of a new client ID linked to the sample orchestrator. */
async function linkedClientId(server: TestServer): Promise<string> {
  const { clientId } = await created(server, "POST", "/v2/client-ids", {
    label: "Linked",
    allowedDomains: ["https://shop.example.com"],
  });
  await asOrchestratorCreated(server, "POST", "/v2/orchestrators/client-ids", { clientId });
  return clientId as string;
}

const orchestratorFee = { flow: "incoming", feeBearer: "recipient", bps: 100, evmRecipientAddress: payee };

/** A new webhook of the sample orchestrator. */
async function orchestratorWebhook(server: TestServer): Promise<string> {
  const url = `${hookTarget}?webhook=${++sequence}`;
  return (
    await asOrchestratorCreated<{ webhook: { id: string } }>(server, "POST", "/v2/orchestrators/webhooks", {
      url,
    })
  ).webhook.id;
}

/** A successful call of each operation that writes, after the calls that make it possible. */
const commerceOrder = {
  merchantId: "shop-42",
  merchantAddress: payee,
  buyerAddress: "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9",
  amount: "1000000",
  paymentCurrency: "USDC-base",
};
/** A commerce payment, authorized unless `pending`. */
async function commercePayment(server: TestServer, pending = false): Promise<string> {
  const { requestId } = await created(
    server,
    "POST",
    "/v2/commerce-payments/authorize/calldata",
    commerceOrder,
  );
  if (!pending) await server.call("POST", `/v2/commerce-payments/${requestId}/authorize`);
  return requestId as string;
}

const password = "correct horse battery staple";
const freshEmail = () => `atomic-${++sequence}@shop.example.com`;

/** A new user's email address, registered (which signs it in). */
async function registeredUser(server: TestServer): Promise<{ email: string; cookie: string }> {
  const email = freshEmail();
  const answer = await server.call("POST", "/v1/auth/register", { auth: "none", body: { email, password } });
  if (answer.status !== 201) throw new Error(`register failed: ${answer.text}`);
  return { email, cookie: sessionCookieOf(answer) };
}

/** A new platform-wide webhook of a new user's session. */
async function sessionWebhook(server: TestServer): Promise<{ cookie: string; id: string }> {
  const { cookie } = await registeredUser(server);
  const answer = await server.call("POST", "/v1/webhook", {
    ...withSession(cookie),
    body: { url: `${hookTarget}?webhook=${++sequence}` },
  });
  if (answer.status !== 201) throw new Error(`webhook failed: ${answer.text}`);
  return { cookie, id: answer.body.id };
}

/** A session of a new wallet (an account of its own), with an active destination in FAU on Sepolia when asked. */
async function walletSession(server: TestServer, withDestination = false): Promise<CallOptions> {
  const as = withSession((await signInWithWallet(server, generatePrivateKey())).cookie);
  if (withDestination) {
    const answer = await server.call("POST", "/v1/payee-destination", { ...as, body: fauSepolia });
    expect(answer.status, answer.text).toBe(201);
  }
  return as;
}

/** The token of a new link intent of the sample orchestrator, without a screening plan. */
const linkIntentToken = async (server: TestServer) =>
  (
    await asOrchestratorCreated<{ intent: { accessToken: string } }>(
      server,
      "POST",
      "/v2/orchestrators/client-id-link-intents",
      {
        clientIdName: "Harbour Books",
        domains: ["https://books.example.com"],
      },
    )
  ).intent.accessToken;

const clientIdBody = { label: "Auth API widget", allowedDomains: ["https://shop.example.com"] };

const writingCalls: Record<string, Setup> = {
  createClientIdV1: async (server) => ({
    method: "POST",
    path: "/v1/client-ids",
    ...(await walletSession(server)),
    body: clientIdBody,
  }),
  updateClientIdV1: async (server) => {
    const as = await walletSession(server);
    const { id } = (await server.call("POST", "/v1/client-ids", { ...as, body: clientIdBody })).body;
    return { method: "PUT", path: `/v1/client-ids/${id}`, ...as, body: { label: "Renamed" } };
  },
  deleteClientIdV1: async (server) => {
    const as = await walletSession(server);
    const { id } = (await server.call("POST", "/v1/client-ids", { ...as, body: clientIdBody })).body;
    return { method: "DELETE", path: `/v1/client-ids/${id}`, ...as };
  },
  createPayeeDestinationV1: async (server) => ({
    method: "POST",
    path: "/v1/payee-destination",
    ...(await walletSession(server)),
    body: fauSepolia,
  }),
  // Another chain and token: the former destination is deactivated in the same change.
  updatePayeeDestinationV1: async (server) => ({
    method: "PUT",
    path: "/v1/payee-destination",
    ...(await walletSession(server, true)),
    body: { chainId: 8453, tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  }),
  deactivatePayeeDestinationV1: async (server) => {
    const as = await walletSession(server, true);
    const { destinationId } = (await server.call("GET", "/v1/payee-destination", as)).body;
    return { method: "PATCH", path: "/v1/payee-destination/deactivate", ...as, body: { destinationId } };
  },
  cancelPayeeDestinationWalletChange: async (server) => {
    const as = await walletSession(server, true);
    const changed = await server.call("PUT", "/v1/payee-destination", {
      ...as,
      body: { ...fauSepolia, walletAddress: payee },
    });
    const { changeRequestId } = changed.body.pendingWalletChange;
    return {
      method: "PATCH",
      path: "/v1/payee-destination/wallet-change/cancel",
      ...as,
      body: { changeRequestId },
    };
  },
  // The client ID, the link, the used intent and the client_id.linked event, in one change.
  completeClientIdLinkIntent: async (server) => ({
    method: "POST",
    path: `/v1/client-id-links/intents/${await linkIntentToken(server)}`,
    ...(await walletSession(server, true)),
    body: { kyt: { provider: "merklescience" } },
  }),
  updateClientIdLinkKyt: async (server) => {
    const as = await walletSession(server, true);
    const token = await linkIntentToken(server);
    const completed = await server.call("POST", `/v1/client-id-links/intents/${token}`, {
      ...as,
      body: { kyt: { provider: null } },
    });
    return {
      method: "PUT",
      path: `/v1/client-id-links/${completed.body.clientId.id}/kyt`,
      ...as,
      body: { provider: "hypernative" },
    };
  },
  createRequestV1: async () => ({
    method: "POST",
    path: "/v1/request",
    body: { payee, amount: "40", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
  }),
  stopRequestRecurrenceV1: async (server) => {
    const { paymentReference } = await newRequest(server, {
      recurrence: { startDate: "2026-05-01", frequency: "MONTHLY" },
    });
    return { method: "PATCH", path: `/v1/request/${paymentReference}/stop-recurrence` };
  },
  createPayoutV1: async () => ({
    method: "POST",
    path: "/v1/pay",
    body: {
      payee,
      amount: "0.2",
      invoiceCurrency: "ETH-sepolia-sepolia",
      paymentCurrency: "ETH-sepolia-sepolia",
    },
  }),
  registerPayerV1: async () => ({
    method: "POST",
    path: "/v1/payer",
    body: payerRegistration(freshUserId()),
  }),
  updatePayerComplianceStatusV1: async (server) => ({
    method: "PATCH",
    path: `/v1/payer/${await registered(server)}`,
    body: { agreementCompleted: true },
  }),
  registerUser: async () => ({
    method: "POST",
    path: "/v1/auth/register",
    auth: "none",
    body: { email: freshEmail(), password },
  }),
  loginUser: async (server) => ({
    method: "POST",
    path: "/v1/auth/login",
    auth: "none",
    body: { email: (await registeredUser(server)).email, password },
  }),
  createWalletChallenge: async () => ({
    method: "POST",
    path: "/v1/auth/wallet/challenge",
    auth: "none",
    body: { address: wallet.address, chainId: 8453 },
  }),
  verifyWalletChallenge: async (server) => {
    // A wallet never seen: its first sign-in also makes its user and account.
    const { challengeId, nonce, message, signature } = await signChallenge(server, generatePrivateKey());
    return {
      method: "POST",
      path: "/v1/auth/wallet/verify",
      auth: "none",
      body: { challengeId, nonce, message, signature },
    };
  },
  logoutUser: async (server) => ({
    method: "POST",
    path: "/v1/auth/logout",
    ...withSession((await registeredUser(server)).cookie),
  }),
  createWebhook: async (server) => ({
    method: "POST",
    path: "/v1/webhook",
    ...withSession((await registeredUser(server)).cookie),
    body: { url: `${hookTarget}?webhook=${++sequence}` },
  }),
  testWebhook: async (server) => ({
    method: "POST",
    path: "/v1/webhook/test",
    ...withSession((await sessionWebhook(server)).cookie),
    body: { eventType: "payment.confirmed" },
  }),
  toggleWebhook: async (server) => {
    const { cookie, id } = await sessionWebhook(server);
    return { method: "PUT", path: `/v1/webhook/${id}`, ...withSession(cookie) };
  },
  deleteWebhook: async (server) => {
    const { cookie, id } = await sessionWebhook(server);
    return { method: "DELETE", path: `/v1/webhook/${id}`, ...withSession(cookie) };
  },
  createOrchestrator: async () => ({
    method: "POST",
    path: "/v2/orchestrators",
    body: { orchestratorName: "Northwind Checkout" },
  }),
  linkOrchestratorClientId: async (server) => {
    const { clientId } = await created(server, "POST", "/v2/client-ids", {
      label: "To link",
      allowedDomains: ["https://shop.example.com"],
    });
    return { method: "POST", path: "/v2/orchestrators/client-ids", body: { clientId }, ...asOrchestrator };
  },
  unlinkOrchestratorClientId: async (server) => ({
    method: "DELETE",
    path: `/v2/orchestrators/client-ids/${await linkedClientId(server)}`,
    ...asOrchestrator,
  }),
  createClientIdLinkIntent: async () => ({
    method: "POST",
    path: "/v2/orchestrators/client-id-link-intents",
    body: { clientIdName: "Storefront" },
    ...asOrchestrator,
  }),
  createOrchestratorFeeConfig: async (server) => ({
    method: "POST",
    path: "/v2/orchestrators/fee-configs",
    body: { ...orchestratorFee, clientId: await linkedClientId(server) },
    ...asOrchestrator,
  }),
  updateOrchestratorFeeConfig: async (server) => {
    const body = { ...orchestratorFee, clientId: await linkedClientId(server) };
    const { id } = await asOrchestratorCreated(server, "POST", "/v2/orchestrators/fee-configs", body);
    return {
      method: "PATCH",
      path: `/v2/orchestrators/fee-configs/${id}`,
      body: { bps: 150 },
      ...asOrchestrator,
    };
  },
  disableOrchestratorFeeConfig: async (server) => {
    const body = { ...orchestratorFee, clientId: await linkedClientId(server) };
    const { id } = await asOrchestratorCreated(server, "POST", "/v2/orchestrators/fee-configs", body);
    return { method: "DELETE", path: `/v2/orchestrators/fee-configs/${id}`, ...asOrchestrator };
  },
  createOrchestratorBranding: async (server) => ({
    method: "POST",
    path: "/v2/orchestrators/branding",
    body: { primaryActionColor: "#1d4ed8", clientId: await linkedClientId(server) },
    ...asOrchestrator,
  }),
  updateOrchestratorBranding: async (server) => {
    const clientId = await linkedClientId(server);
    await asOrchestratorCreated(server, "POST", "/v2/orchestrators/branding", {
      logoPath: "/a.svg",
      clientId,
    });
    return {
      method: "PATCH",
      path: "/v2/orchestrators/branding",
      body: { primaryActionColor: "#b91c1c", clientId },
      ...asOrchestrator,
    };
  },
  removeOrchestratorBranding: async (server) => {
    const clientId = await linkedClientId(server);
    await asOrchestratorCreated(server, "POST", "/v2/orchestrators/branding", {
      logoPath: "/a.svg",
      clientId,
    });
    return { method: "DELETE", path: `/v2/orchestrators/branding?clientId=${clientId}`, ...asOrchestrator };
  },
  createOrchestratorWebhook: async () => ({
    method: "POST",
    path: "/v2/orchestrators/webhooks",
    body: { url: `${hookTarget}?webhook=${++sequence}` },
    ...asOrchestrator,
  }),
  activateOrchestratorWebhook: async (server) => {
    const id = await orchestratorWebhook(server);
    await asOrchestratorCreated(server, "DELETE", `/v2/orchestrators/webhooks/${id}`);
    return { method: "PATCH", path: `/v2/orchestrators/webhooks/${id}`, ...asOrchestrator };
  },
  deactivateOrchestratorWebhook: async (server) => ({
    method: "DELETE",
    path: `/v2/orchestrators/webhooks/${await orchestratorWebhook(server)}`,
    ...asOrchestrator,
  }),
  sendOrchestratorWebhookTest: async (server) => {
    await orchestratorWebhook(server);
    return {
      method: "POST",
      path: "/v2/orchestrators/webhooks/test",
      body: { eventType: "client_id.linked" },
      ...asOrchestrator,
    };
  },
  createJourney: async () => ({ method: "POST", path: "/v2/journey", body: {} }),
  createJourneyEvent: async (server) => ({
    method: "POST",
    path: `/v2/journey/${(await created(server, "POST", "/v2/journey", {})).journeyId}`,
    body: { status: "PENDING", amount: "1", processedAt: "2026-04-10T13:00:00Z" },
  }),
  generateCommerceAuthorizeCalldata: async () => ({
    method: "POST",
    path: "/v2/commerce-payments/authorize/calldata",
    body: commerceOrder,
  }),
  authorizeCommercePayment: async (server) => ({
    method: "POST",
    path: `/v2/commerce-payments/${await commercePayment(server, true)}/authorize`,
  }),
  captureCommercePayment: async (server) => ({
    method: "POST",
    path: `/v2/commerce-payments/${await commercePayment(server)}/capture`,
    body: { captureAmount: "400000" },
  }),
  voidCommercePayment: async (server) => ({
    method: "POST",
    path: `/v2/commerce-payments/${await commercePayment(server)}/void`,
    body: { reason: "out_of_stock" },
  }),
  registerPayer: async () => ({ method: "POST", path: "/v2/payer", body: payerRegistration(freshUserId()) }),
  updatePayerComplianceStatus: async (server) => ({
    method: "PATCH",
    path: `/v2/payer/${await registered(server)}`,
    body: { agreementCompleted: true },
  }),
  createPaymentDetails: async (server) => ({
    method: "POST",
    path: `/v1/payer/${await registered(server)}/payment-details`,
    body: bankAccount,
  }),
  createPaymentDetailsV2: async (server) => ({
    method: "POST",
    path: `/v2/payer/${await registered(server)}/payment-details`,
    body: bankAccount,
  }),
  createClientId: async () => ({
    method: "POST",
    path: "/v2/client-ids",
    body: { label: "Checkout", allowedDomains: ["https://shop.example.com"] },
  }),
  updateClientId: async (server) => {
    const { id } = await created(server, "POST", "/v2/client-ids", {
      label: "Checkout",
      allowedDomains: ["https://shop.example.com"],
    });
    return { method: "PUT", path: `/v2/client-ids/${id}`, body: { label: "Checkout (renamed)" } };
  },
  deleteClientId: async (server) => {
    const { id } = await created(server, "POST", "/v2/client-ids", {
      label: "Checkout",
      allowedDomains: ["https://shop.example.com"],
    });
    return { method: "DELETE", path: `/v2/client-ids/${id}` };
  },
  createRequest: async () => ({
    method: "POST",
    path: "/v2/request",
    body: { payee, amount: "40", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
  }),
  updateRequest: async (server) => {
    const { requestId } = await newRequest(server, {
      recurrence: { startDate: "2026-05-01", frequency: "MONTHLY" },
    });
    return { method: "PATCH", path: `/v2/request/${requestId}`, body: { isRecurrenceStopped: true } };
  },
  getPayCalldata: async (server) => {
    const { requestId } = await newRequest(server);
    return {
      method: "GET",
      path: `/v2/request/${requestId}/pay?chain=OPTIMISM&token=USDC&wallet=${wallet.address}`,
    };
  },
  sendPaymentIntent: async (server) => {
    const { requestId } = await newRequest(server);
    const pay = await created<{
      paymentIntentId: string;
      paymentIntent: string;
      approvalPermitPayload: string | null;
    }>(server, "GET", `/v2/request/${requestId}/pay?chain=OPTIMISM&token=USDC&wallet=${wallet.address}`);
    return {
      method: "POST",
      path: `/v2/request/payment-intents/${pay.paymentIntentId}`,
      body: {
        signedPaymentIntent: await signIssued(pay.paymentIntent),
        ...(pay.approvalPermitPayload
          ? { signedApprovalPermit: await signIssued(pay.approvalPermitPayload) }
          : {}),
      },
    };
  },
  createPayout: async () => ({
    method: "POST",
    path: "/v2/payouts",
    body: {
      payee,
      amount: "0.2",
      invoiceCurrency: "ETH-sepolia-sepolia",
      paymentCurrency: "ETH-sepolia-sepolia",
    },
  }),
  createBatchPayout: async () => ({
    method: "POST",
    path: "/v2/payouts/batch",
    body: {
      requests: [
        { payee, amount: "125.00", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
        { payee, amount: "0.1", invoiceCurrency: "ETH-base-base", paymentCurrency: "ETH-base-base" },
      ],
      payer,
    },
  }),
  submitRecurringPaymentSignature: permitSignatureCall,
  updateRecurringPayment: async (server) => ({
    method: "PATCH",
    path: `/v2/payouts/recurring/${await activeRecurringPayout(server)}`,
    body: { action: "cancel" },
  }),
  createSecurePayment: async () => ({
    method: "POST",
    path: "/v2/secure-payments",
    body: { requests: [{ payee, amount: "125.00", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }] },
  }),
  "createSecurePayment (to a payee destination)": async (server) => {
    const { destinationId } = await registerPayeeDestination(
      server,
      privateKeyToAccount(generatePrivateKey()),
    );
    return {
      method: "POST",
      path: "/v2/secure-payments",
      body: { requests: [{ destinationId, amount: "10" }] },
    };
  },
  recordSecurePaymentIntent: async (server) => {
    const { token } = await created(server, "POST", "/v2/secure-payments", {
      requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
    });
    return {
      method: "POST",
      path: `/v2/secure-payments/${token}/intent`,
      body: { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" },
    };
  },
  createPayoutSecurePayment: async () => ({
    method: "POST",
    path: "/v2/secure-payments/payouts",
    body: { recipient: payee, network: "base", currency: "USDC-base", amount: "250.00" },
  }),
  createBatchPayoutSecurePayment: async (server) => ({
    method: "POST",
    path: "/v2/secure-payments/batch-payouts",
    body: { tokens: await twoPayoutLinks(server) },
  }),
  recordSecurePaymentUserEvent: async (server) => {
    const { token } = await created(server, "POST", "/v2/secure-payments", {
      requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
    });
    return {
      ...asBrowser,
      method: "POST",
      path: `/v2/secure-payments/${token}/events`,
      body: { userEvent: "wallet_connected" },
    };
  },
  recordMulticallPayoutIntent: async (server) => {
    const { token } = await created<{ token: string }>(
      server,
      "POST",
      "/v2/secure-payments/multicall-payouts",
      {
        childTokens: await twoPayoutLinks(server),
      },
    );
    return {
      method: "POST",
      path: `/v2/secure-payments/${token}/multicall-intent`,
      body: { chain: "BASE", transactionIndices: [{ childPosition: 0, transactionIndex: 0 }] },
    };
  },
  createMulticallPayout: async (server) => ({
    method: "POST",
    path: "/v2/secure-payments/multicall-payouts",
    body: { childTokens: await twoPayoutLinks(server) },
  }),
  createPayeeDestination: async (server) => {
    const { nonce, signature } = await signPayeeDestination(
      server,
      privateKeyToAccount(generatePrivateKey()),
      "add",
      fauSepolia,
    );
    return { ...asBrowser, method: "POST", path: "/v2/payee-destination", body: { nonce, signature } };
  },
  deactivatePayeeDestination: async (server) => {
    const signer = privateKeyToAccount(generatePrivateKey());
    const { id } = await registerPayeeDestination(server, signer);
    const { nonce, signature } = await signPayeeDestination(server, signer, "deactivate", fauSepolia);
    return { ...asBrowser, method: "DELETE", path: destinationPath(id), body: { nonce, signature } };
  },
  setSandboxClock: async () => ({ method: "POST", path: "/sandbox/clock", body: { advanceSeconds: 3600 } }),
  setSandboxWallet: async () => ({
    method: "POST",
    path: "/sandbox/wallets",
    body: { address: payer, balances: [{ currency: "USDC-base", amount: "250.00" }] },
  }),
  recordSandboxPayment: async (server) => {
    const { requestId } = await newRequest(server);
    return {
      method: "POST",
      path: `/sandbox/requests/${requestId}/payments`,
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    };
  },
  updateSandboxSecurePayment: async (server) => {
    const { token } = await created(server, "POST", "/v2/secure-payments", {
      requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
    });
    return { method: "PATCH", path: `/sandbox/secure-payments/${token}`, body: { status: "invalidated" } };
  },
  rejectSandboxSecurePaymentAccess: async (server) => {
    // A link made with a client ID: its refusals are for that client ID's webhooks.
    const link = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      body: { requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }] },
    });
    expect(link.status, link.text).toBe(201);
    return {
      method: "POST",
      path: `/sandbox/secure-payments/${link.body.token}/access-rejections`,
      body: { wallet: payer },
    };
  },
  updateSandboxPayer: async (server) => ({
    method: "PATCH",
    path: `/sandbox/payers/${await registered(server)}`,
    body: { kycStatus: "approved", agreementStatus: "completed" },
  }),
  updateSandboxPaymentDetail: async (server) => {
    const clientUserId = await registered(server);
    const { payment_detail } = await created<{ payment_detail: { id: string } }>(
      server,
      "POST",
      `/v1/payer/${clientUserId}/payment-details`,
      bankAccount,
    );
    return {
      method: "PATCH",
      path: `/sandbox/payers/${clientUserId}/payment-details/${payment_detail.id}`,
      body: { status: "failed", rejectionMessage: "The IBAN does not exist" },
    };
  },
  createSandboxRecurringPayment: async () => ({
    method: "POST",
    path: "/sandbox/recurring-payments",
    body: {
      status: "active",
      payer,
      payee,
      currency: "USDC-base",
      amount: "50",
      totalPayments: 8,
      processedPayments: 3,
      spender: "0xDc8781fFAb20Fef4aB0472c3d6E50073B540Ed9e",
      nextPaymentDate: "2026-05-01T09:00:00.000Z",
    },
  }),
  executeSandboxRecurringPayment: async (server) => ({
    method: "POST",
    path: `/sandbox/recurring-payments/${await activeRecurringPayout(server)}/executions`,
    body: { outcome: "success", txHash: `0x${"cd".repeat(32)}` },
  }),
  createSandboxWebhookEndpoint: async () => ({
    method: "POST",
    path: "/sandbox/webhooks/endpoints",
    body: { url: hookTarget },
  }),
  deleteSandboxWebhookEndpoint: async (server) => ({
    method: "DELETE",
    path: `/sandbox/webhooks/endpoints/${(await endpoint(server)).id}`,
  }),
  rotateSandboxWebhookEndpointSecret: async (server) => ({
    method: "POST",
    path: `/sandbox/webhooks/endpoints/${(await endpoint(server)).id}/rotate-secret`,
  }),
  sendSandboxWebhookTest: async (server) => ({
    method: "POST",
    path: `/sandbox/webhooks/endpoints/${(await endpoint(server)).id}/test`,
    body: { event: "payment.confirmed" },
  }),
  redeliverSandboxWebhook: async (server) => {
    const { id } = await endpoint(server);
    // Only a delivered or dead delivery can be sent again: let the worker deliver this one.
    server.server.webhooks.start();
    const delivery = await created<{ id: string }>(server, "POST", `/sandbox/webhooks/endpoints/${id}/test`, {
      event: "payment.confirmed",
    });
    await server.server.webhooks.settled();
    await server.server.webhooks.stop();
    return { method: "POST", path: `/sandbox/webhooks/deliveries/${delivery.id}/redeliver` };
  },
};

/**
 * Operations sent with a writing method that only compute an answer: they must store nothing.
 * Each with the status its call answers (the sandbox refuses every bridge step it is asked to refresh).
 */
const readingCalls: Record<string, { setup: Setup; status: number }> = {
  // Faults live in the server's memory, never in the store.
  createSandboxFault: {
    status: 201,
    setup: async () => ({
      method: "POST",
      path: "/sandbox/faults",
      body: { operationId: "getHealth", kind: "latency", latencyMs: 1 },
    }),
  },
  deleteSandboxFault: {
    status: 204,
    setup: async (server) => {
      const { id } = await created(server, "POST", "/sandbox/faults", { kind: "latency", latencyMs: 1 });
      return { method: "DELETE", path: `/sandbox/faults/${id}` };
    },
  },
  clearSandboxFaults: { status: 204, setup: async () => ({ method: "DELETE", path: "/sandbox/faults" }) },
  broadcastSecurePaymentTronTransaction: {
    status: 400,
    setup: async (server) => {
      const { token } = await created(server, "POST", "/v2/secure-payments", {
        requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
      });
      return {
        method: "POST",
        path: `/v2/secure-payments/${token}/tron/broadcast`,
        body: { raw_data_hex: "0a02", signature: ["3f"], raw_data: { contract: [{}] } },
      };
    },
  },
  generateCommerceCaptureCalldata: {
    status: 200,
    setup: async (server) => ({
      method: "POST",
      path: `/v2/commerce-payments/${await commercePayment(server)}/capture/calldata`,
      body: { captureAmount: "400000" },
    }),
  },
  generateCommerceVoidCalldata: {
    status: 200,
    setup: async (server) => ({
      method: "POST",
      path: `/v2/commerce-payments/${await commercePayment(server)}/void/calldata`,
    }),
  },
  previewSecurePaymentFees: {
    status: 200,
    setup: async () => ({
      method: "POST",
      path: "/v2/secure-payments/fees/preview",
      body: { amount: "100", currency: "USDC", flow: "get_paid" },
    }),
  },
  refreshSecurePaymentStepTransaction: {
    status: 400,
    setup: async (server) => {
      const { token } = await created(server, "POST", "/v2/secure-payments", {
        requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }],
      });
      return {
        method: "POST",
        path: `/v2/secure-payments/${token}/refresh-step-transaction`,
        body: {
          step: { id: "step-1", type: "lifi", tool: "across", action: { toChainId: 8453, toAddress: payee } },
        },
      };
    },
  },
};

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

describe("every request is atomic", () => {
  it("has a writing call for every operation that may write", () => {
    const writing = readPathOperations()
      .filter((operation) => writeMethods.has(operation.method))
      .map((operation) => operation.operationId);
    expect(
      writing.filter((operationId) => !(operationId in writingCalls || operationId in readingCalls)),
    ).toEqual([]);
  });

  describe.each(Object.entries(readingCalls))("%s", (operationId, { setup, status }) => {
    it("stores nothing, so that no failure can leave anything half-written", async () => {
      const memory = createMemoryStore();
      const failing = createFailingStore(memory);
      const server = await startTestServer({ store: failing.store });
      try {
        const call = await setup(server);
        const before = memory.snapshot();
        failing.arm(undefined);
        const answer = await server.call(call.method, call.path, call);
        expect(answer.status, answer.text).toBe(status);
        expect(failing.seen().wrote, `${operationId} wrote`).toBe(false);
        expect(memory.snapshot()).toEqual(before);
      } finally {
        await server.close();
      }
    });
  });

  describe.each(Object.entries(writingCalls))("%s", (operationId, setup) => {
    const memory = createMemoryStore();
    const failing = createFailingStore(memory);
    let server: TestServer;
    beforeAll(async () => {
      const config = createDefaultConfig();
      config.allowWebhookTargets = ["127.0.0.1"];
      server = await startTestServer({ config, store: failing.store });
      // Deliveries would write to the store beside the request under test.
      await server.server.webhooks.stop();
    });
    afterAll(() => server.close());

    it("leaves the store as it was when any store call after its first write fails", async () => {
      failing.arm(undefined);
      const call = await setup(server);
      failing.arm(undefined);
      const succeeded = await server.call(call.method, call.path, call);
      expect(succeeded.status, succeeded.text).toBeLessThan(300);
      const { wrote, callsAfterFirstWrite } = failing.seen();
      expect(wrote, `${operationId} wrote nothing`).toBe(true);

      for (let failAt = 0; failAt <= callsAfterFirstWrite; failAt++) {
        failing.arm(undefined);
        const next = await setup(server);
        const before = memory.snapshot();
        failing.arm(failAt);
        const failed = await server.call(next.method, next.path, next);
        expect(failing.seen().failed, `${operationId}: no failure forced at call ${failAt}`).toBe(true);
        expect(problemErrors(failed, "/problems/internal-error", 500)).toEqual([]);
        expect(
          memory.snapshot(),
          `${operationId}: failure at store call ${failAt} after the first write`,
        ).toEqual(before);
      }
    });
  });
});
