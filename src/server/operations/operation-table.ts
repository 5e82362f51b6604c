import { createWalletChallenge } from "../domain/auth/create-wallet-challenge.ts";
import { getAuthHealth } from "../domain/auth/get-auth-health.ts";
import { loginUser } from "../domain/auth/login-user.ts";
import { logoutUser } from "../domain/auth/logout-user.ts";
import { registerUser } from "../domain/auth/register-user.ts";
import { verifyWalletChallenge } from "../domain/auth/verify-wallet-challenge.ts";
import {
  createClientId,
  deleteClientId,
  getClientId,
  listClientIds,
  updateClientId,
} from "../domain/client-ids/client-ids.ts";
import { listConversionRoutes, listConversionRoutesV2 } from "../domain/currencies/list-conversion-routes.ts";
import { listCurrencies, listCurrenciesV2 } from "../domain/currencies/list-currencies.ts";
import { getPayeeDestinationSigningData } from "../domain/payee-destinations/get-payee-destination-signing-data.ts";
import {
  createPayeeDestination,
  deactivatePayeeDestination,
  getActivePayeeDestination,
  getPayeeDestination,
} from "../domain/payee-destinations/payee-destinations.ts";
import {
  getPayerComplianceStatus,
  registerPayer,
  updatePayerComplianceStatus,
} from "../domain/payers/payers.ts";
import {
  createPaymentDetails,
  createPaymentDetailsV2,
  listPaymentDetails,
} from "../domain/payers/payment-details.ts";
import { searchPayments } from "../domain/payments/search-payments.ts";
import { createBatchPayout } from "../domain/payouts/create-batch-payout.ts";
import { createPayout } from "../domain/payouts/create-payout.ts";
import { getRecurringPaymentStatus } from "../domain/recurring-payments/get-recurring-payment-status.ts";
import { submitRecurringPaymentSignature } from "../domain/recurring-payments/submit-recurring-payment-signature.ts";
import { updateRecurringPayment } from "../domain/recurring-payments/update-recurring-payment.ts";
import { createRequest } from "../domain/requests/create-request.ts";
import { getPayCalldata } from "../domain/requests/get-pay-calldata.ts";
import { getRequestStatus } from "../domain/requests/get-request-status.ts";
import { listPaymentRoutes, listRequestRoutes } from "../domain/requests/list-payment-routes.ts";
import { sendPaymentIntent } from "../domain/requests/send-payment-intent.ts";
import { updateRequest } from "../domain/requests/update-request.ts";
import { getSandboxClock, setSandboxClock } from "../domain/sandbox/clock.ts";
import { updateSandboxPayer, updateSandboxPaymentDetail } from "../domain/sandbox/payers.ts";
import { executeSandboxRecurringPayment } from "../domain/sandbox/recurring-executions.ts";
import {
  createSandboxRecurringPayment,
  getSandboxRecurringPayment,
} from "../domain/sandbox/recurring-payments.ts";
import { getSandboxRequest, recordSandboxPayment } from "../domain/sandbox/requests.ts";
import { updateSandboxSecurePayment } from "../domain/sandbox/secure-payments.ts";
import { getSandboxWallet, setSandboxWallet } from "../domain/sandbox/wallets.ts";
import { checkSecurePaymentToken } from "../domain/secure-payments/check-secure-payment-token.ts";
import { createBatchPayoutSecurePayment } from "../domain/secure-payments/create-batch-payout-secure-payment.ts";
import { createMulticallPayout } from "../domain/secure-payments/create-multicall-payout.ts";
import { createPayoutSecurePayment } from "../domain/secure-payments/create-payout-secure-payment.ts";
import { createSecurePayment } from "../domain/secure-payments/create-secure-payment.ts";
import { findSecurePayment } from "../domain/secure-payments/find-secure-payment.ts";
import { getMulticallPayout } from "../domain/secure-payments/get-multicall-payout.ts";
import { getSecurePaymentCalldata } from "../domain/secure-payments/get-secure-payment-calldata.ts";
import { previewSecurePaymentFees } from "../domain/secure-payments/preview-secure-payment-fees.ts";
import { recordSecurePaymentIntent } from "../domain/secure-payments/record-secure-payment-intent.ts";
import { refreshSecurePaymentStepTransaction } from "../domain/secure-payments/refresh-secure-payment-step-transaction.ts";
import type { OperationHandlers } from "../domain/shared/operation-types.ts";
import {
  getSandboxWebhookDelivery,
  listSandboxWebhookDeliveries,
  redeliverSandboxWebhook,
} from "../domain/webhooks/webhook-deliveries.ts";
import {
  createSandboxWebhookEndpoint,
  deleteSandboxWebhookEndpoint,
  getSandboxWebhookEndpoint,
  listSandboxWebhookEndpoints,
  rotateSandboxWebhookEndpointSecret,
  sendSandboxWebhookTest,
} from "../domain/webhooks/webhook-endpoints.ts";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  testWebhook,
  toggleWebhook,
} from "../domain/webhooks/webhooks.ts";

/**
 * The server's operations by operationId: each entry is the domain function of the same name.
 * The dispatch step answers with the operation's documented success status. An operation that
 * reads nothing stored is `{ stateless: handler }`: it runs without the caller's sandbox clock,
 * and answers while the database is unavailable.
 */
export const operationHandlers: OperationHandlers = {
  // Auth API: sessions and the webhooks they manage
  getAuthHealth: { stateless: getAuthHealth },
  registerUser,
  loginUser,
  createWalletChallenge,
  verifyWalletChallenge,
  logoutUser,
  createWebhook,
  listWebhooks,
  toggleWebhook,
  deleteWebhook,
  testWebhook,
  // Currencies and routes
  listCurrencies: { stateless: listCurrencies },
  listConversionRoutes: { stateless: listConversionRoutes },
  listCurrenciesV2: { stateless: listCurrenciesV2 },
  listConversionRoutesV2: { stateless: listConversionRoutesV2 },
  listPaymentRoutes,
  listRequestRoutes,
  // Requests and payments
  createRequest,
  getRequestStatus,
  updateRequest,
  getPayCalldata,
  sendPaymentIntent,
  searchPayments,
  createSecurePayment,
  createPayoutSecurePayment,
  createBatchPayoutSecurePayment,
  previewSecurePaymentFees: { stateless: previewSecurePaymentFees },
  checkSecurePaymentToken,
  createPayout,
  findSecurePayment,
  getSecurePaymentCalldata,
  recordSecurePaymentIntent,
  refreshSecurePaymentStepTransaction,
  createMulticallPayout,
  getMulticallPayout,
  createBatchPayout,
  getRecurringPaymentStatus,
  submitRecurringPaymentSignature,
  updateRecurringPayment,
  // Payee destinations
  getPayeeDestinationSigningData,
  createPayeeDestination,
  getActivePayeeDestination,
  getPayeeDestination,
  deactivatePayeeDestination,
  // Payers and client IDs
  registerPayer,
  getPayerComplianceStatus,
  updatePayerComplianceStatus,
  createPaymentDetails,
  createPaymentDetailsV2,
  listPaymentDetails,
  createClientId,
  listClientIds,
  getClientId,
  updateClientId,
  deleteClientId,
  // Sandbox controls
  getSandboxClock,
  setSandboxClock,
  setSandboxWallet,
  getSandboxWallet,
  getSandboxRequest,
  recordSandboxPayment,
  updateSandboxSecurePayment,
  updateSandboxPayer,
  updateSandboxPaymentDetail,
  createSandboxRecurringPayment,
  getSandboxRecurringPayment,
  executeSandboxRecurringPayment,
  createSandboxWebhookEndpoint,
  listSandboxWebhookEndpoints,
  getSandboxWebhookEndpoint,
  deleteSandboxWebhookEndpoint,
  rotateSandboxWebhookEndpointSecret,
  sendSandboxWebhookTest,
  listSandboxWebhookDeliveries,
  getSandboxWebhookDelivery,
  redeliverSandboxWebhook,
};
