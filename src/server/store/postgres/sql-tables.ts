import type {
  ClientIdRecord,
  PayeeDestinationNonceRecord,
  PayeeDestinationRecord,
  PayerRecord,
  PaymentDetailRecord,
  PaymentIntentRecord,
  RecurringPaymentRecord,
  RequestRecord,
  SandboxClockRecord,
  SecurePaymentRecord,
  WalletAllowanceRecord,
  WalletBalanceRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "../records.ts";

type ColumnValue = string | number | boolean | null;

/**
 * How a record type is kept in PostgreSQL: its table (see migrations/), the primary key columns,
 * and the values of every column beside `record` and `position`, read from the record.
 */
export interface SqlTable<R> {
  name: string;
  key: readonly string[];
  columns(record: R): Record<string, ColumnValue>;
}

function table<R>(name: string, key: readonly string[], columns: (record: R) => Record<string, ColumnValue>) {
  return { name, key, columns } satisfies SqlTable<R>;
}

const lower = (value: string) => value.toLowerCase();

/** Each record type's table; a new record type adds a migration and an entry here. */
export const sqlTables = {
  requests: table<RequestRecord>("requests", ["request_id"], (r) => ({
    request_id: r.requestId,
    account_id: r.accountId,
    payment_reference: lower(r.paymentReference),
    recurring_payment_id: r.recurringPaymentId ?? null,
  })),
  paymentIntents: table<PaymentIntentRecord>("payment_intents", ["id"], (r) => ({ id: r.id })),
  securePayments: table<SecurePaymentRecord>("secure_payments", ["token"], (r) => ({ token: r.token })),
  payeeDestinations: table<PayeeDestinationRecord>(
    "payee_destinations",
    ["account_id", "destination_id"],
    (r) => ({
      account_id: r.accountId,
      destination_id: r.destinationId,
      wallet_address: lower(r.walletAddress),
      active: r.active,
    }),
  ),
  payeeDestinationNonces: table<PayeeDestinationNonceRecord>("payee_destination_nonces", ["nonce"], (r) => ({
    nonce: r.nonce,
  })),
  recurringPayments: table<RecurringPaymentRecord>("recurring_payments", ["id"], (r) => ({ id: r.id })),
  payers: table<PayerRecord>("payers", ["account_id", "client_user_id"], (r) => ({
    account_id: r.accountId,
    client_user_id: r.clientUserId,
  })),
  paymentDetails: table<PaymentDetailRecord>("payment_details", ["id"], (r) => ({
    id: r.id,
    account_id: r.accountId,
    client_user_id: r.clientUserId,
  })),
  clientIds: table<ClientIdRecord>("client_ids", ["id"], (r) => ({
    id: r.id,
    account_id: r.accountId,
    client_id: r.clientId,
  })),
  balances: table<WalletBalanceRecord>("wallet_balances", ["account_id", "address", "currency"], (r) => ({
    account_id: r.accountId,
    address: lower(r.address),
    currency: lower(r.currency),
  })),
  allowances: table<WalletAllowanceRecord>(
    "wallet_allowances",
    ["account_id", "address", "currency", "spender"],
    (r) => ({
      account_id: r.accountId,
      address: lower(r.address),
      currency: lower(r.currency),
      spender: lower(r.spender),
    }),
  ),
  sandboxClocks: table<SandboxClockRecord>("sandbox_clocks", ["account_id"], (r) => ({
    account_id: r.accountId,
  })),
  webhookEndpoints: table<WebhookEndpointRecord>("webhook_endpoints", ["id"], (r) => ({
    id: r.id,
    account_id: r.accountId,
  })),
  webhookDeliveries: table<WebhookDeliveryRecord>("webhook_deliveries", ["id"], (r) => ({
    id: r.id,
    account_id: r.accountId,
    endpoint_id: r.endpointId,
    event_id: r.eventId,
    request_id: r.requestId,
    state: r.state,
    // No due time: at once.
    due_at: r.dueAt ?? "-infinity",
    lease_until: r.lease?.until ?? null,
  })),
};
