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
import {
  createClientIdV1,
  deleteClientIdV1,
  getClientIdV1,
  listClientIdsV1,
  updateClientIdV1,
} from "../domain/client-ids/client-ids-v1.ts";
import {
  authorizeCommercePayment,
  captureCommercePayment,
  generateCommerceCaptureCalldata,
  generateCommerceVoidCalldata,
  getCommercePaymentStatus,
  voidCommercePayment,
} from "../domain/commerce-payments/commerce-payments.ts";
import { generateCommerceAuthorizeCalldata } from "../domain/commerce-payments/generate-commerce-authorize-calldata.ts";
import { listConversionRoutes, listConversionRoutesV2 } from "../domain/currencies/list-conversion-routes.ts";
import { listCurrencies, listCurrenciesV2 } from "../domain/currencies/list-currencies.ts";
import { exportRequests } from "../domain/dashboard/export-requests.ts";
import { getHealth } from "../domain/health/get-health.ts";
import { createJourney } from "../domain/journeys/create-journey.ts";
import { createJourneyEvent } from "../domain/journeys/create-journey-event.ts";
import { getJourney } from "../domain/journeys/get-journey.ts";
import {
  createOrchestratorBranding,
  getOrchestratorBranding,
  removeOrchestratorBranding,
  updateOrchestratorBranding,
} from "../domain/orchestrators/branding.ts";
import {
  checkClientIdLinkIntent,
  completeClientIdLinkIntent,
  updateClientIdLinkKyt,
} from "../domain/orchestrators/client-id-link-intents.ts";
import {
  linkOrchestratorClientId,
  listOrchestratorClientIds,
  unlinkOrchestratorClientId,
} from "../domain/orchestrators/client-id-links.ts";
import { createClientIdLinkIntent } from "../domain/orchestrators/create-client-id-link-intent.ts";
import { createOrchestrator } from "../domain/orchestrators/create-orchestrator.ts";
import {
  createOrchestratorFeeConfig,
  disableOrchestratorFeeConfig,
  listOrchestratorFeeConfigs,
  updateOrchestratorFeeConfig,
} from "../domain/orchestrators/fee-configs.ts";
import {
  activateOrchestratorWebhook,
  createOrchestratorWebhook,
  deactivateOrchestratorWebhook,
  listOrchestratorWebhooks,
  sendOrchestratorWebhookTest,
} from "../domain/orchestrators/webhooks.ts";
import { getPayeeDestinationSigningData } from "../domain/payee-destinations/get-payee-destination-signing-data.ts";
import {
  createPayeeDestination,
  deactivatePayeeDestination,
  getActivePayeeDestination,
  getPayeeDestination,
} from "../domain/payee-destinations/payee-destinations.ts";
import {
  cancelPayeeDestinationWalletChange,
  createPayeeDestinationV1,
  deactivatePayeeDestinationV1,
  getActivePayeeDestinationV1,
  getPayeeDestinationV1,
  lookupPayoutDestination,
  updatePayeeDestinationV1,
} from "../domain/payee-destinations/payee-destinations-v1.ts";
import {
  getPayerComplianceStatus,
  getPayerComplianceStatusV1,
  registerPayer,
  registerPayerV1,
  updatePayerComplianceStatus,
  updatePayerComplianceStatusV1,
} from "../domain/payers/payers.ts";
import {
  createPaymentDetails,
  createPaymentDetailsV2,
  listPaymentDetails,
  listPaymentDetailsV1,
} from "../domain/payers/payment-details.ts";
import { searchPayments } from "../domain/payments/search-payments.ts";
import { createBatchPayout } from "../domain/payouts/create-batch-payout.ts";
import { createPayout } from "../domain/payouts/create-payout.ts";
import { createPayoutV1 } from "../domain/payouts/create-payout-v1.ts";
import { getRecurringPaymentStatus } from "../domain/recurring-payments/get-recurring-payment-status.ts";
import { submitRecurringPaymentSignature } from "../domain/recurring-payments/submit-recurring-payment-signature.ts";
import { updateRecurringPayment } from "../domain/recurring-payments/update-recurring-payment.ts";
import { createRequest } from "../domain/requests/create-request.ts";
import { createRequestV1 } from "../domain/requests/create-request-v1.ts";
import { getPayCalldata } from "../domain/requests/get-pay-calldata.ts";
import { getPayCalldataV1 } from "../domain/requests/get-pay-calldata-v1.ts";
import { getRequestStatus } from "../domain/requests/get-request-status.ts";
import { getRequestStatusV1 } from "../domain/requests/get-request-status-v1.ts";
import { listPaymentRoutes, listRequestRoutes } from "../domain/requests/list-payment-routes.ts";
import { listRequests } from "../domain/requests/list-requests.ts";
import { sendPaymentIntent } from "../domain/requests/send-payment-intent.ts";
import { stopRequestRecurrenceV1 } from "../domain/requests/stop-request-recurrence-v1.ts";
import { updateRequest } from "../domain/requests/update-request.ts";
import { rejectSandboxSecurePaymentAccess } from "../domain/sandbox/access-rejections.ts";
import { getSandboxClock, setSandboxClock } from "../domain/sandbox/clock.ts";
import {
  clearSandboxFaults,
  createSandboxFault,
  deleteSandboxFault,
  listSandboxFaults,
} from "../domain/sandbox/faults.ts";
import { updateSandboxPayer, updateSandboxPaymentDetail } from "../domain/sandbox/payers.ts";
import { executeSandboxRecurringPayment } from "../domain/sandbox/recurring-executions.ts";
import {
  createSandboxRecurringPayment,
  getSandboxRecurringPayment,
} from "../domain/sandbox/recurring-payments.ts";
import { getSandboxRequest, recordSandboxPayment } from "../domain/sandbox/requests.ts";
import { updateSandboxSecurePayment } from "../domain/sandbox/secure-payments.ts";
import { getSandboxWallet, setSandboxWallet } from "../domain/sandbox/wallets.ts";
import { broadcastSecurePaymentTronTransaction } from "../domain/secure-payments/broadcast-secure-payment-tron-transaction.ts";
import { checkSecurePaymentToken } from "../domain/secure-payments/check-secure-payment-token.ts";
import { createBatchPayoutSecurePayment } from "../domain/secure-payments/create-batch-payout-secure-payment.ts";
import { createMulticallPayout } from "../domain/secure-payments/create-multicall-payout.ts";
import { createPayoutSecurePayment } from "../domain/secure-payments/create-payout-secure-payment.ts";
import { createSecurePayment } from "../domain/secure-payments/create-secure-payment.ts";
import { findSecurePayment } from "../domain/secure-payments/find-secure-payment.ts";
import { getMulticallPayout } from "../domain/secure-payments/get-multicall-payout.ts";
import { getSecurePaymentCalldata } from "../domain/secure-payments/get-secure-payment-calldata.ts";
import { previewSecurePaymentFees } from "../domain/secure-payments/preview-secure-payment-fees.ts";
import { recordMulticallPayoutIntent } from "../domain/secure-payments/record-multicall-payout-intent.ts";
import { recordSecurePaymentIntent } from "../domain/secure-payments/record-secure-payment-intent.ts";
import { recordSecurePaymentUserEvent } from "../domain/secure-payments/record-secure-payment-user-event.ts";
import { refreshSecurePaymentStepTransaction } from "../domain/secure-payments/refresh-secure-payment-step-transaction.ts";
import type { OperationHandlers } from "../domain/shared/operation-types.ts";
import { getTransactionHistory } from "../domain/transaction-history/get-transaction-history.ts";
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
  listRequests,
  getRequestStatus,
  updateRequest,
  getPayCalldata,
  createRequestV1,
  getRequestStatusV1,
  getPayCalldataV1,
  stopRequestRecurrenceV1,
  sendPaymentIntent,
  searchPayments,
  getTransactionHistory,
  exportRequests,
  getHealth: { stateless: getHealth },
  // Commerce payments (preview)
  generateCommerceAuthorizeCalldata,
  authorizeCommercePayment,
  captureCommercePayment,
  generateCommerceCaptureCalldata,
  voidCommercePayment,
  generateCommerceVoidCalldata,
  getCommercePaymentStatus,
  // Journeys
  createJourney,
  getJourney,
  createJourneyEvent,
  createSecurePayment,
  createPayoutSecurePayment,
  createBatchPayoutSecurePayment,
  previewSecurePaymentFees: { stateless: previewSecurePaymentFees },
  checkSecurePaymentToken,
  createPayout,
  createPayoutV1,
  findSecurePayment,
  getSecurePaymentCalldata,
  recordSecurePaymentIntent,
  recordMulticallPayoutIntent,
  recordSecurePaymentUserEvent,
  refreshSecurePaymentStepTransaction,
  broadcastSecurePaymentTronTransaction,
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
  getActivePayeeDestinationV1,
  createPayeeDestinationV1,
  updatePayeeDestinationV1,
  deactivatePayeeDestinationV1,
  getPayeeDestinationV1,
  lookupPayoutDestination,
  cancelPayeeDestinationWalletChange,
  // Payers and client IDs
  registerPayer,
  getPayerComplianceStatus,
  updatePayerComplianceStatus,
  createPaymentDetails,
  createPaymentDetailsV2,
  listPaymentDetails,
  registerPayerV1,
  getPayerComplianceStatusV1,
  updatePayerComplianceStatusV1,
  listPaymentDetailsV1,
  createClientId,
  listClientIds,
  getClientId,
  updateClientId,
  deleteClientId,
  createClientIdV1,
  listClientIdsV1,
  getClientIdV1,
  updateClientIdV1,
  deleteClientIdV1,
  createOrchestrator,
  checkClientIdLinkIntent,
  completeClientIdLinkIntent,
  updateClientIdLinkKyt,
  linkOrchestratorClientId,
  listOrchestratorClientIds,
  unlinkOrchestratorClientId,
  createClientIdLinkIntent,
  createOrchestratorFeeConfig,
  listOrchestratorFeeConfigs,
  updateOrchestratorFeeConfig,
  disableOrchestratorFeeConfig,
  createOrchestratorBranding,
  getOrchestratorBranding,
  updateOrchestratorBranding,
  removeOrchestratorBranding,
  createOrchestratorWebhook,
  listOrchestratorWebhooks,
  activateOrchestratorWebhook,
  deactivateOrchestratorWebhook,
  sendOrchestratorWebhookTest,
  // Sandbox controls
  getSandboxClock,
  setSandboxClock,
  createSandboxFault,
  listSandboxFaults: { stateless: listSandboxFaults },
  deleteSandboxFault: { stateless: deleteSandboxFault },
  clearSandboxFaults: { stateless: clearSandboxFaults },
  setSandboxWallet,
  getSandboxWallet,
  getSandboxRequest,
  recordSandboxPayment,
  updateSandboxSecurePayment,
  rejectSandboxSecurePaymentAccess,
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
