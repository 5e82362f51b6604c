import type { SpecOperation } from "../../src/spec/operations.ts";
import { asObject, isObject, resolveObject, type SpecDocument } from "../../src/spec/spec-document.ts";

/** The kinds of record an operation's input can name; each belongs to one account. */
export type RecordKind =
  | "request"
  | "paymentReference"
  | "paymentTxHash"
  | "link"
  | "payoutLink"
  | "multicallLink"
  | "paymentIntent"
  | "recurringPayment"
  | "clientIdRecord"
  | "payer"
  | "paymentDetail"
  | "payeeDestination"
  | "signingNonce"
  | "webhookEndpoint"
  | "webhookDelivery"
  | "webhookEvent"
  | "linkedClientId"
  | "orchestratorFeeConfig"
  | "orchestratorWebhook"
  | "journey"
  | "commercePayment"
  | "sandboxFault";

/** One input of an operation: a path or query parameter, or a body member at `pointer`. */
export interface OperationInput {
  in: "path" | "query" | "body";
  name: string;
  /** Below the body: member names, and 0 for an array's first item. One element for parameters. */
  pointer: (string | number)[];
  required: boolean;
  /** An array of identifiers (`requestIds`, `tokens`). */
  list: boolean;
}

/** An input that names a record of `kind`. */
export interface RecordInput extends OperationInput {
  kind: RecordKind;
  /** Another input that must come with this one (both or neither), named like it. */
  pairedWith?: string;
}

/** Names that may name a record: an identifier, a token, a reference, a hash, a nonce, an address. */
const mayNameRecord = /^(id|token|tokens|nonce|address)$|Ids?$|Tokens?$|Reference$|Hash$/;

type Rule = {
  name: string;
  /** Only in this operation's inputs. */
  operationId?: string;
  in?: OperationInput["in"];
  /** The body pointer, joined with `/`, when the name alone is not enough. */
  at?: string;
} & (
  | { kind: RecordKind | ((operation: SpecOperation) => RecordKind | undefined); pairedWith?: string }
  | { none: string }
);

/** The record kind of each path that names its record `{id}`. */
const idPaths: [prefix: string, kind: RecordKind][] = [
  ["/v2/client-ids/", "clientIdRecord"],
  ["/v1/client-ids/", "clientIdRecord"],
  ["/v2/payouts/recurring/", "recurringPayment"],
  ["/sandbox/recurring-payments/", "recurringPayment"],
  ["/v2/orchestrators/fee-configs/", "orchestratorFeeConfig"],
  ["/v2/orchestrators/webhooks/", "orchestratorWebhook"],
];

/**
 * What each input whose name may name a record names: the first rule that matches decides. An
 * input that matches none is reported by `unclassifiedInputs`, so that a new operation cannot
 * take a record id without this table saying which record it is.
 */
const webhookScopeWhy =
  "a client ID's public value scoping a webhook: with a client ID credential only the caller's own is accepted, any other refused alike; with a session, another account's is refused as unknown (test/server/domain/webhooks/webhooks.test.ts)";

const rules: Rule[] = [
  {
    name: "requestId",
    in: "path",
    kind: (operation) => (operation.key.startsWith("/v2/commerce-payments/") ? "commercePayment" : "request"),
  },
  { name: "requestId", kind: "request" },
  { name: "requestIds", kind: "request" },
  { name: "originalRequestId", kind: "request" },
  { name: "paymentReference", kind: "paymentReference" },
  { name: "originalRequestPaymentReference", kind: "paymentReference", pairedWith: "originalRequestId" },
  { name: "txHash", in: "query", kind: "paymentTxHash" },
  { name: "paymentIntentId", kind: "paymentIntent" },
  ...(["checkClientIdLinkIntent", "completeClientIdLinkIntent"] as const).map((operationId) => ({
    name: "token",
    operationId,
    none: "a link intent's token: the orchestrator hands it to a recipient of another account, and any signed-in caller holding it may check it and complete it once (test/server/domain/orchestrators/client-id-link-intents.test.ts)",
  })),
  {
    name: "token",
    in: "path",
    kind: (operation) => (operation.key.includes("/multicall-") ? "multicallLink" : "link"),
  },
  { name: "clientIdId", in: "path", kind: "clientIdRecord" },
  { name: "tokens", kind: "payoutLink" },
  { name: "childTokens", kind: "payoutLink" },
  {
    name: "id",
    in: "path",
    kind: (operation) => idPaths.find(([prefix]) => operation.key.startsWith(prefix))?.[1],
  },
  { name: "clientUserId", in: "path", kind: "payer" },
  { name: "clientUserId", in: "query", kind: "payer", pairedWith: "paymentDetailsId" },
  { name: "clientUserId", in: "body", none: "the integrator's name for a new payer, in its own account" },
  { name: "paymentDetailsId", in: "path", kind: "paymentDetail" },
  { name: "paymentDetailsId", in: "query", kind: "paymentDetail", pairedWith: "clientUserId" },
  { name: "destinationId", kind: "payeeDestination" },
  { name: "payeeDestinationId", kind: "payeeDestination" },
  {
    name: "changeRequestId",
    none: "a wallet change pending on the signed-in wallet's own active destination, the only one looked in: any other answers 404 as unknown",
  },
  {
    name: "challengeId",
    operationId: "verifyWalletChallenge",
    none: "a wallet sign-in challenge: it belongs to no account, and is answered before any session exists",
  },
  { name: "nonce", operationId: "verifyWalletChallenge", none: "the nonce written in a sign-in challenge" },
  { name: "nonce", in: "body", at: "nonce", kind: "signingNonce" },
  { name: "nonce", in: "body", none: "the nonce of signed typed data, not a record" },
  { name: "endpointId", kind: "webhookEndpoint" },
  ...(["createWebhook", "testWebhook"] as const).map((operationId) => ({
    name: "clientId",
    operationId,
    in: "body" as const,
    none: webhookScopeWhy,
  })),
  { name: "clientId", kind: "linkedClientId" },
  { name: "externalId", none: "the orchestrator's own name for an invited recipient" },
  { name: "policyId", none: "a screening provider's policy" },
  { name: "webhookId", kind: "webhookEndpoint" },
  { name: "deliveryId", kind: "webhookDelivery" },
  { name: "eventId", kind: "webhookEvent" },
  { name: "journeyId", in: "path", kind: "journey" },
  { name: "faultId", in: "path", kind: "sandboxFault" },
  {
    name: "operationId",
    operationId: "createSandboxFault",
    none: "the name of an operation of the spec, not a record",
  },
  { name: "txReference", in: "body", none: "the transaction reference of a step being reported" },
  { name: "nextProcessorId", none: "the name of a processor, not a record" },
  { name: "merchantId", none: "the integrator's own name for a merchant, not a record" },
  { name: "address", in: "query", none: "a wallet: the history reads the caller's own requests only" },
  { name: "token", none: "a currency symbol" },
  { name: "sourceToken", none: "a currency symbol" },
  { name: "txHash", in: "body", none: "the hash of a transaction being reported" },
  { name: "safeTxHash", none: "the hash of a Safe transaction being reported" },
  { name: "address", at: "customerInfo/address", none: "the customer's postal address" },
  { name: "address", none: "a wallet of the caller's own wallet book: every account has its own" },
  { name: "currencyId", none: "a currency of the table every account shares" },
  { name: "id", in: "query", none: "a currency of the table every account shares" },
  { name: "chainId", none: "a chain" },
  { name: "toChainId", none: "a chain" },
  { name: "id", in: "body", at: "step/id", none: "a bridge route step, which the sandbox does not keep" },
];

function ruleFor(input: OperationInput, operation: SpecOperation): Rule | undefined {
  return rules.find(
    (rule) =>
      rule.name === input.name &&
      (rule.operationId === undefined || rule.operationId === operation.operationId) &&
      (rule.in === undefined || rule.in === input.in) &&
      (rule.at === undefined || rule.at === input.pointer.join("/")),
  );
}

/** The inputs of an operation whose name may name a record: parameters, then body members at any depth. */
function candidateInputs(document: SpecDocument, operation: SpecOperation): OperationInput[] {
  const inputs: OperationInput[] = operation.parameters
    .filter((parameter) => parameter.in !== "header" && mayNameRecord.test(parameter.name))
    .map((parameter) => ({
      in: parameter.in as "path" | "query",
      name: parameter.name,
      pointer: [parameter.name],
      required: parameter.required,
      list: false,
    }));
  const found = new Map<string, OperationInput>();
  const walk = (node: unknown, at: (string | number)[], required: boolean, depth: number) => {
    if (depth > 8 || !isObject(node)) return;
    const schema = resolveObject(document, node);
    for (const branch of ["oneOf", "anyOf", "allOf"] as const) {
      const parts = schema[branch];
      if (Array.isArray(parts)) for (const part of parts) walk(part, at, false, depth + 1);
    }
    if (schema.items !== undefined) walk(schema.items, [...at, 0], false, depth + 1);
    const requiredNames = Array.isArray(schema.required) ? schema.required : [];
    for (const [name, property] of Object.entries(asObject(schema.properties))) {
      const pointer = [...at, name];
      const resolved = resolveObject(document, property);
      const items = resolved.items === undefined ? undefined : resolveObject(document, resolved.items);
      if (mayNameRecord.test(name) && !found.has(pointer.join("/"))) {
        found.set(pointer.join("/"), {
          in: "body",
          name,
          pointer,
          required: required && requiredNames.includes(name),
          list: items?.type === "string",
        });
      }
      walk(property, pointer, required && requiredNames.includes(name), depth + 1);
    }
  };
  if (operation.body) walk(operation.body.schema, [], operation.body.required, 0);
  return [...inputs, ...found.values()];
}

/** The inputs of an operation that name a record, each with its kind. */
export function recordInputsOf(document: SpecDocument, operation: SpecOperation): RecordInput[] {
  return candidateInputs(document, operation).flatMap((input) => {
    const rule = ruleFor(input, operation);
    if (!rule || "none" in rule) return [];
    const kind = typeof rule.kind === "function" ? rule.kind(operation) : rule.kind;
    if (kind === undefined) return [];
    return [{ ...input, kind, ...(rule.pairedWith ? { pairedWith: rule.pairedWith } : {}) }];
  });
}

/** The inputs that may name a record but that no rule classifies, as `operationId in:pointer`. */
export function unclassifiedInputs(document: SpecDocument, operations: SpecOperation[]): string[] {
  return operations.flatMap((operation) =>
    candidateInputs(document, operation)
      .filter((input) => {
        const rule = ruleFor(input, operation);
        return !rule || ("kind" in rule && typeof rule.kind === "function" && !rule.kind(operation));
      })
      .map((input) => `${operation.operationId} ${input.in}:${input.pointer.join("/")}`),
  );
}
