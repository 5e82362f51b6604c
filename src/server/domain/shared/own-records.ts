import { notFound } from "../../problems.ts";
import type {
  ClientIdRecord,
  PayeeDestinationNonceRecord,
  PayeeDestinationRecord,
  PayerRecord,
  PaymentDetailRecord,
  PaymentIntentRecord,
  RecurringPaymentRecord,
  RequestRecord,
  SecurePaymentRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { canonicalDestinationId } from "./payee-destination-ids.ts";
import type { Principal } from "./principal.ts";

// Object-level authorization. Every record belongs to one account, and an operation reaches a
// record through the identifier its caller sends only when the record is the caller's: another
// account's record answers exactly as an identifier no record has (the same 404 with the same
// detail, or, for identifiers in a body, the same 400 issue). Every operation that takes a record
// identifier loads the record through one of the loaders below, one per kind of record; what
// a record refers to itself (a link's requests, a multicall link's payout links) is read directly.
//
// One exception, by design: the payer-facing reads of a secure payment by its token
// (`loadSecurePaymentForPayer`) take any caller, because the token is handed to the payer and
// the payer's page calls with a client ID that need not be the link's account's. What changes a
// link (reporting its payment, refreshing a route step) takes the link's own account only.

/** The record when it belongs to the caller's account; undefined for another account's, as for none. */
export async function findOwnRecord<R extends { accountId: string }>(
  pending: Promise<R | undefined>,
  principal: Principal,
): Promise<R | undefined> {
  const record = await pending;
  return record?.accountId === principal.accountId ? record : undefined;
}

/**
 * The record when it belongs to the caller's account; otherwise 404 with `missing` as the detail.
 * Another account's record is as unknown to the caller as one that does not exist.
 */
export async function requireOwnRecord<R extends { accountId: string }>(
  pending: Promise<R | undefined>,
  principal: Principal,
  missing: string,
): Promise<R> {
  const record = await findOwnRecord(pending, principal);
  if (!record) throw notFound(missing);
  return record;
}

type Store = Pick<
  StoreOperations,
  | "requests"
  | "securePayments"
  | "paymentIntents"
  | "recurringPayments"
  | "clientIds"
  | "payers"
  | "paymentDetails"
  | "payeeDestinations"
  | "payeeDestinationNonces"
  | "webhookEndpoints"
  | "webhookDeliveries"
>;

/** One of the caller's requests, or undefined (for identifiers in a body, which answer 400). */
export function findOwnRequest(
  store: Store,
  principal: Principal,
  requestId: string,
): Promise<RequestRecord | undefined> {
  return findOwnRecord(store.requests.get(requestId), principal);
}

export function loadOwnRequest(
  store: Store,
  principal: Principal,
  requestId: string,
): Promise<RequestRecord> {
  return requireOwnRecord(store.requests.get(requestId), principal, `No request has the id ${requestId}.`);
}

/** A payment reference as stored: `0x` and lower-case hex, whether it was sent with `0x` or not. */
function canonicalPaymentReference(paymentReference: string): string {
  return `0x${paymentReference.replace(/^0x/, "").toLowerCase()}`;
}

/** One of the caller's requests by its payment reference (with or without `0x`), or undefined. */
export function findOwnRequestByReference(
  store: Store,
  principal: Principal,
  paymentReference: string,
): Promise<RequestRecord | undefined> {
  return findOwnRecord(
    store.requests.first("paymentReference", canonicalPaymentReference(paymentReference)),
    principal,
  );
}

export function loadOwnRequestByReference(
  store: Store,
  principal: Principal,
  paymentReference: string,
): Promise<RequestRecord> {
  const reference = canonicalPaymentReference(paymentReference);
  return requireOwnRecord(
    store.requests.first("paymentReference", reference),
    principal,
    `No request has the payment reference ${reference}.`,
  );
}

/** One of the caller's secure payments, or undefined (for tokens in a body). */
export function findOwnSecurePayment(
  store: Store,
  principal: Principal,
  token: string,
): Promise<SecurePaymentRecord | undefined> {
  return findOwnRecord(store.securePayments.get(token), principal);
}

const noSecurePayment = (token: string) => `No secure payment has the token ${token}.`;

/** One of the caller's secure payments: what changes a link, and what only its account reads. */
export function loadOwnSecurePayment(
  store: Store,
  principal: Principal,
  token: string,
  missing: string = noSecurePayment(token),
): Promise<SecurePaymentRecord> {
  return requireOwnRecord(store.securePayments.get(token), principal, missing);
}

/**
 * Any account's secure payment, for the payer-facing reads by token only (the token check and
 * the link's calldata): the payer's page reads the link it was sent with its own client ID.
 */
export async function loadSecurePaymentForPayer(store: Store, token: string): Promise<SecurePaymentRecord> {
  const record = await store.securePayments.get(token);
  if (!record) throw notFound(noSecurePayment(token));
  return record;
}

export function loadOwnPaymentIntent(
  store: Store,
  principal: Principal,
  id: string,
): Promise<PaymentIntentRecord> {
  return requireOwnRecord(store.paymentIntents.get(id), principal, `No payment intent has the id ${id}.`);
}

export function loadOwnRecurringPayment(
  store: Store,
  principal: Principal,
  id: string,
): Promise<RecurringPaymentRecord> {
  return requireOwnRecord(
    store.recurringPayments.get(id),
    principal,
    `No recurring payment has the id ${id}.`,
  );
}

/** The client-ID record `id` of the caller's account (the record's id, not its public value). */
export function loadOwnClientId(store: Store, principal: Principal, id: string): Promise<ClientIdRecord> {
  return requireOwnRecord(
    store.clientIds.get(id),
    principal,
    `No client ID of your account has the id ${id}.`,
  );
}

/** The payer the caller's account registered under `clientUserId` (each account names its own payers). */
export async function loadOwnPayer(
  store: Store,
  principal: Principal,
  clientUserId: string,
): Promise<PayerRecord> {
  const payer = await store.payers.get({ accountId: principal.accountId, clientUserId });
  if (!payer)
    throw notFound(
      `No payer is registered under clientUserId '${clientUserId}'; register it with POST /v2/payer first.`,
    );
  return payer;
}

/** A payment detail of the caller's payer `clientUserId`, by its id. */
export async function loadOwnPaymentDetail(
  store: Store,
  principal: Principal,
  clientUserId: string,
  id: string,
): Promise<PaymentDetailRecord> {
  const detail = await findOwnRecord(store.paymentDetails.get(id), principal);
  if (detail?.clientUserId !== clientUserId) {
    throw notFound(`Payer '${clientUserId}' has no payment details with id '${id}'.`);
  }
  return detail;
}

/** The caller's payee destination of a canonical destination id, or undefined. */
export function findOwnPayeeDestination(
  store: Store,
  principal: Principal,
  destinationId: string,
): Promise<PayeeDestinationRecord | undefined> {
  return store.payeeDestinations.get({ accountId: principal.accountId, destinationId });
}

/** The caller's payee destination named in a path, in either spelling of `PayeeDestinationKey`. */
export async function loadOwnPayeeDestination(
  store: Store,
  principal: Principal,
  key: string,
): Promise<PayeeDestinationRecord> {
  const destinationId = canonicalDestinationId(key);
  const record = destinationId && (await findOwnPayeeDestination(store, principal, destinationId));
  if (!record) throw notFound(`No payee destination of this account is ${key}.`);
  return record;
}

/** A payee destination signing session of the caller's account, by its nonce, or undefined. */
export function findOwnSigningNonce(
  store: Store,
  principal: Principal,
  nonce: string,
): Promise<PayeeDestinationNonceRecord | undefined> {
  return findOwnRecord(store.payeeDestinationNonces.get(nonce), principal);
}

export function loadOwnWebhookEndpoint(
  store: Store,
  principal: Principal,
  id: string,
): Promise<WebhookEndpointRecord> {
  return requireOwnRecord(store.webhookEndpoints.get(id), principal, `No webhook endpoint has the id ${id}.`);
}

export function loadOwnWebhookDelivery(
  store: Store,
  principal: Principal,
  id: string,
): Promise<WebhookDeliveryRecord> {
  return requireOwnRecord(
    store.webhookDeliveries.get(id),
    principal,
    `No webhook delivery has the id ${id}.`,
  );
}
