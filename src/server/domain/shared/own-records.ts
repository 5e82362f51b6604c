import { invalidField, notFound } from "../../problems.ts";
import type {
  ClientIdRecord,
  OrchestratorClientIdLinkRecord,
  OrchestratorRecord,
  PayeeDestinationRecord,
  PaymentDetailRecord,
  SecurePaymentRecord,
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

type Store = StoreOperations;

/** The tables of records of one account each, keyed by one identifier, and what the caller calls each record. */
const idTables = {
  requests: "request",
  paymentIntents: "payment intent",
  recurringPayments: "recurring payment",
  clientIds: "client ID of your account",
  webhookEndpoints: "webhook endpoint",
  webhookDeliveries: "webhook delivery",
  securePayments: "secure payment",
  payeeDestinationNonces: "payee destination nonce",
  journeys: "journey",
  commercePayments: "commerce payment of a request",
} as const;
type IdTableName = keyof typeof idTables;
type RecordIn<N extends IdTableName> = NonNullable<Awaited<ReturnType<Store[N]["get"]>>>;

/** `store[table].get(id)`, typed by the table: TypeScript does not narrow the union of tables by itself. */
function getById<N extends IdTableName>(
  store: Store,
  table: N,
  id: string,
): Promise<RecordIn<N> | undefined> {
  return (store[table] as { get(id: string): Promise<RecordIn<N> | undefined> }).get(id);
}

/** The loader of the caller's records of one table: the record, or 404 as for an unknown id. */
function loadOwnById<N extends IdTableName>(table: N) {
  return (store: Store, principal: Principal, id: string): Promise<RecordIn<N>> =>
    requireOwnRecord(getById(store, table, id), principal, `No ${idTables[table]} has the id ${id}.`);
}

/** The finder of the caller's records of one table: the record, or undefined (for identifiers in a body). */
function findOwnById<N extends IdTableName>(table: N) {
  return (store: Store, principal: Principal, id: string): Promise<RecordIn<N> | undefined> =>
    findOwnRecord(getById(store, table, id), principal);
}

export const loadOwnRequest = loadOwnById("requests");
export const findOwnRequest = findOwnById("requests");
export const loadOwnPaymentIntent = loadOwnById("paymentIntents");
export const loadOwnRecurringPayment = loadOwnById("recurringPayments");
/** A client-ID record of the caller's account, by the record's id (not its public value). */
export const loadOwnClientId = loadOwnById("clientIds");
/** One of the account's own webhook endpoints (an orchestrator's webhook answers as unknown here). */
export async function loadOwnWebhookEndpoint(store: Store, principal: Principal, id: string) {
  const record = await findOwnRecord(store.webhookEndpoints.get(id), principal);
  if (record?.scope !== "account") throw notFound(`No webhook endpoint has the id ${id}.`);
  return record;
}
export const loadOwnWebhookDelivery = loadOwnById("webhookDeliveries");

/**
 * Whether a caller sees a webhook of its account: a client ID sees its own and the platform-wide
 * ones, other credentials every one.
 */
export function webhookVisibleTo(principal: Principal, endpoint: { clientId?: string | null }): boolean {
  const scope = endpoint.clientId ?? null;
  return principal.kind !== "clientId" || scope === null || scope === principal.clientId.clientId;
}

/** A webhook (a webhook endpoint) the caller sees, by its id: another client ID's answers as unknown. */
export async function loadOwnWebhook(store: Store, principal: Principal, id: string) {
  const endpoint = await loadOwnWebhookEndpoint(store, principal, id);
  if (!webhookVisibleTo(principal, endpoint)) throw notFound(`No webhook endpoint has the id ${id}.`);
  return endpoint;
}

/** One of the caller's account's client IDs, by its public value (`x-client-id`), for values in a body. */
export async function findOwnClientIdByValue(store: Store, principal: Principal, value: string) {
  return findOwnRecord(store.clientIds.first("publicValue", value), principal);
}
/** A payee destination signing session of the caller's account, by its nonce. */
export const findOwnSigningNonce = findOwnById("payeeDestinationNonces");
export const loadOwnJourney = loadOwnById("journeys");
/** A commerce payment of the caller's, by the id of its request. */
export const loadOwnCommercePayment = loadOwnById("commercePayments");
export const findOwnJourney = findOwnById("journeys");

/**
 * The caller's journey a path names by its id, or by the `txReference` of one of its steps (the
 * reference is looked up among the caller's own steps only); 404 when neither finds one.
 */
export async function loadOwnJourneyByIdOrReference(
  store: Store,
  principal: Principal,
  idOrReference: string,
) {
  const byId = await findOwnJourney(store, principal, idOrReference);
  if (byId) return byId;
  const step = await store.journeyEvents.first("txReference", {
    accountId: principal.accountId,
    txReference: idOrReference,
  });
  const byStep = step && (await findOwnJourney(store, principal, step.journeyId));
  if (!byStep) throw notFound(`No journey has the id ${idOrReference}, nor a step with that txReference.`);
  return byStep;
}

/** One of the caller's secure payments, for tokens in a body. */
export const findOwnSecurePayment = findOwnById("securePayments");

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

/** A payment reference as stored: `0x` and lower-case hex, whether it was sent with `0x` or not. */
function canonicalPaymentReference(paymentReference: string): string {
  return `0x${paymentReference.replace(/^0x/, "").toLowerCase()}`;
}

/** One of the caller's requests by its payment reference (with or without `0x`), or undefined. */
export function findOwnRequestByReference(store: Store, principal: Principal, paymentReference: string) {
  const reference = canonicalPaymentReference(paymentReference);
  return findOwnRecord(store.requests.first("paymentReference", reference), principal);
}

export async function loadOwnRequestByReference(
  store: Store,
  principal: Principal,
  paymentReference: string,
) {
  const request = await findOwnRequestByReference(store, principal, paymentReference);
  if (!request) {
    throw notFound(`No request has the payment reference ${canonicalPaymentReference(paymentReference)}.`);
  }
  return request;
}

/** The payer the caller's account registered under `clientUserId` (each account names its own payers). */
export async function loadOwnPayer(store: Store, principal: Principal, clientUserId: string) {
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
export function findOwnPayeeDestination(store: Store, principal: Principal, destinationId: string) {
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

// An orchestrator's records (links, fee configurations, brandings, webhooks) are reached by that
// orchestrator only: another orchestrator's, of the same account or not, answer as unknown ones.

/** The orchestrator an orchestrator operation acts for: its caller. */
export function callingOrchestrator(principal: Principal): OrchestratorRecord {
  if (principal.kind !== "orchestrator")
    throw new Error("an orchestrator operation ran without an orchestrator key");
  return principal.orchestrator;
}

/** The record when it belongs to the calling orchestrator; otherwise 404 with `missing` as the detail. */
export async function requireOrchestratorRecord<R extends { accountId: string; orchestratorId?: string }>(
  pending: Promise<R | undefined>,
  principal: Principal,
  missing: string,
): Promise<R> {
  const orchestrator = callingOrchestrator(principal);
  const record = await pending;
  if (record?.accountId !== orchestrator.accountId || record.orchestratorId !== orchestrator.id) {
    throw notFound(missing);
  }
  return record;
}

/** A client ID linked (actively) to the calling orchestrator, by its public value; undefined otherwise. */
export async function findLinkedClientId(
  store: Store,
  principal: Principal,
  publicValue: string,
): Promise<{ clientId: ClientIdRecord; link: OrchestratorClientIdLinkRecord } | undefined> {
  const orchestrator = callingOrchestrator(principal);
  const clientId = await store.clientIds.first("publicValue", publicValue);
  if (!clientId) return undefined;
  const link = await store.orchestratorClientIdLinks.first("orchestratorAndClientId", {
    orchestratorId: orchestrator.id,
    clientIdId: clientId.id,
  });
  return link?.status === "active" ? { clientId, link } : undefined;
}

/** What a client ID that is not linked to the calling orchestrator answers: 400 naming a body member, 404 in a query. */
export function notLinked(location: string, value: string): Error {
  if (location.startsWith("/query/"))
    return notFound(`No client ID linked to this orchestrator has the value ${value}.`);
  return invalidField(location, `no client ID linked to this orchestrator has the value ${value}`);
}
