import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../src/server/index.ts";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { AccountRecords, type TestAccount, unknownRecordId } from "./account-records.ts";
import { otherWalletKey, signInWithWallet, walletKey, withSession } from "./domain/auth/sign-in.ts";
import { configWithOtherAccount, otherApiKey } from "./fixtures.ts";
import { type Answer, browserOrigin, payer, type TestServer } from "./helpers.ts";
import { type RecordInput, recordInputsOf, unclassifiedInputs } from "./record-inputs.ts";
import { startWebhookServer } from "./webhooks/harness.ts";
import { type Receiver, startReceiver } from "./webhooks/receiver.ts";

// Object-level authorization, walked over the spec: every operation that names a record is
// called by account B with account A's record, and must answer exactly what it answers B for an
// identifier no record has; A, with the same call, must get its record.

const otherClientId = "pk_other_account_0000000001";

const otherOrchestratorKey = "orc_other_account_0000000001";

const accountA: TestAccount = {
  name: "account A",
  apiKey: { auth: "apiKey" },
  clientId: { auth: "clientId" },
  orchestrator: { auth: "none", headers: { "x-orchestrator-key": sampleCredentials.orchestratorKey } },
  // Signed in once the server runs (beforeAll).
  session: { auth: "none" },
};
const accountB: TestAccount = {
  name: "account B",
  apiKey: { auth: "none", headers: { "x-api-key": otherApiKey } },
  clientId: { auth: "none", headers: { "x-client-id": otherClientId, origin: browserOrigin } },
  orchestrator: { auth: "none", headers: { "x-orchestrator-key": otherOrchestratorKey } },
  session: { auth: "none" },
};

/**
 * The operations any caller may make with another account's record, and why. Only payer-facing
 * reads by secure-payment token are: the token is handed to the payer, and the hosted page
 * calls with its own client ID, which need not be the link's account's.
 */
const openToAnyCaller: Record<string, string> = {
  checkSecurePaymentToken: "the payer's page reads the link it was sent, with its own client ID",
  getSecurePaymentCalldata:
    "the payer's page fetches the transactions that pay that link, with the same client ID",
};

const spec = loadBundledSpec();
const operations = readPathOperations(spec);

/** One call of an operation in which `target` names another account's record. */
interface AuthorizationCase {
  title: string;
  operation: SpecOperation;
  /** Every input of the operation that names a record. */
  inputs: RecordInput[];
  target: RecordInput;
}

const cases: AuthorizationCase[] = operations.flatMap((operation) => {
  const inputs = recordInputsOf(spec, operation);
  return inputs.map((target) => ({
    title: `${operation.operationId} (${target.in} ${target.pointer.join("/")})`,
    operation,
    inputs,
    target,
  }));
});

/** The records an input carries in one call: `count` identifiers of its kind. */
type RecordSource = (input: RecordInput, count: number) => Promise<string[]>;

const recordsOf =
  (records: AccountRecords): RecordSource =>
  (input, count) =>
    records.several(input.kind, count);
const unknownRecords: RecordSource = async (input, count) =>
  Array.from({ length: count }, () => unknownRecordId(input.kind));

function valueAt(value: unknown, pointer: (string | number)[]): unknown {
  let current = value;
  for (const token of pointer) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[token];
  }
  return current;
}

function setAt(value: unknown, pointer: (string | number)[], member: unknown): void {
  const parent = valueAt(value, pointer.slice(0, -1)) as Record<string | number, unknown>;
  parent[pointer.at(-1) as string | number] = member;
}

/** The spec's body example a case sends: the first that holds the target, else the first. */
function exampleBody(test: AuthorizationCase): unknown {
  const examples = test.operation.body?.examples ?? [];
  const holding = examples.find((example) => valueAt(example.value, test.target.pointer) !== undefined);
  const chosen = test.target.in === "body" ? (holding ?? examples[0]) : examples[0];
  return chosen === undefined ? undefined : structuredClone(chosen.value);
}

/** Whether a case sends an input: its target, the target's pair, a required parameter, a member of the example. */
function sends(test: AuthorizationCase, input: RecordInput, body: unknown): boolean {
  if (input === test.target || input.name === test.target.pairedWith) return true;
  return input.in === "body" ? valueAt(body, input.pointer) !== undefined : input.required;
}

interface SentCall {
  answer: Answer;
  /** What the target carried. */
  target: string[];
}

/**
 * Makes the case's call as `account`: the target carries the records of `target`, the other
 * inputs the caller's own; every other input is the spec's example.
 */
async function callCase(
  server: TestServer,
  test: AuthorizationCase,
  account: TestAccount,
  target: RecordSource,
  own: RecordSource,
): Promise<SentCall> {
  const { operation } = test;
  const body = exampleBody(test);
  const sent = new Map<RecordInput, string[]>();
  for (const input of test.inputs) {
    if (!sends(test, input, body)) continue;
    const count = input.list ? ((valueAt(body, input.pointer) as unknown[] | undefined)?.length ?? 1) : 1;
    sent.set(input, await (input === test.target ? target : own)(input, count));
  }
  const sentValue = (location: RecordInput["in"], name: string) =>
    [...sent].find(([input]) => input.in === location && input.name === name)?.[1][0];
  const path = operation.key.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = sentValue("path", name) ?? operation.parameters.find((p) => p.name === name)?.example;
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
    const value = sentValue("query", parameter.name) ?? (parameter.required ? parameter.example : undefined);
    if (value !== undefined) query.set(parameter.name, String(value));
  }
  for (const [input, values] of sent) {
    if (input.in === "body") setAt(body, input.pointer, input.list ? values : values[0]);
  }
  const credential = operation.acceptsOrchestratorKey
    ? account.orchestrator
    : operation.acceptsApiKey
      ? account.apiKey
      : operation.acceptsClientId
        ? account.clientId
        : account.session;
  const answer = await server.call(operation.method, query.size > 0 ? `${path}?${query}` : path, {
    ...credential,
    ...(body === undefined ? {} : { body }),
  });
  return { answer, target: sent.get(test.target) ?? [] };
}

/**
 * What a caller learns from an answer, with `names` (another call's target) read as the
 * identifiers of `as`: status, problem type, detail and issues of an error; the body of a success.
 */
function outcomeOf(call: SentCall, as?: SentCall): unknown {
  let text = call.answer.text;
  call.target.forEach((name, index) => {
    text = text.replaceAll(name, as?.target[index] ?? name);
  });
  const body = text === "" ? undefined : JSON.parse(text);
  if (call.answer.status < 400) return { status: call.answer.status, body };
  return { status: call.answer.status, type: body.type, detail: body.detail, errors: body.errors };
}

/** What an unknown identifier answers: 404 in the path, 400 naming it in a body, 404 or an empty list in a query. */
function expectUnknownAnswer(test: AuthorizationCase, answer: Answer): void {
  if (test.target.in === "path") expect(answer.status, answer.text).toBe(404);
  if (test.target.in === "query") expect([200, 404], answer.text).toContain(answer.status);
  if (test.target.in === "body") {
    expect(answer.status, answer.text).toBe(400);
    const paths = (answer.body as { errors: { path: string }[] }).errors.map((issue) => issue.path);
    expect(paths.some((path) => path.startsWith(`/body/${test.target.pointer.join("/")}`))).toBe(true);
  }
}

let server: TestServer;
let hook: Receiver;
beforeAll(async () => {
  hook = await startReceiver();
  const config = configWithOtherAccount([
    { id: "cid_other", clientId: otherClientId, label: "Other shop", allowedDomains: [browserOrigin] },
  ]);
  const [sandbox, other] = config.accounts;
  if (sandbox) sandbox.wallets = [privateKeyToAccount(walletKey).address];
  if (other) {
    other.orchestrators = [{ id: "01KM9T0A7Q3D25VT4F5V37E3S4", name: "Other", key: otherOrchestratorKey }];
    other.wallets = [privateKeyToAccount(otherWalletKey).address];
  }
  // Each test makes its own records, webhook endpoints among them.
  const settings = { accounts: config.accounts, maxWebhookEndpointsPerAccount: 1000 };
  server = await startWebhookServer({ settings });
  // Session-only operations are called with a session of a wallet configured for each account.
  accountA.session = withSession((await signInWithWallet(server, walletKey)).cookie);
  accountB.session = withSession((await signInWithWallet(server, otherWalletKey)).cookie);
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

const recordsOfA = () => new AccountRecords(server, accountA, hook.url);
const recordsOfB = () => new AccountRecords(server, accountB, hook.url);

describe("the operations that name a record", () => {
  it("are all found in the spec, each input classified", () => {
    expect(unclassifiedInputs(spec, operations)).toEqual([]);
    const named = new Set(cases.map((test) => test.operation.operationId));
    expect(named.size).toBeGreaterThanOrEqual(45);
    for (const operationId of Object.keys(openToAnyCaller)) expect(named).toContain(operationId);
  });
});

describe("another account's record answers as an unknown one", () => {
  const closed = cases.filter((test) => !(test.operation.operationId in openToAnyCaller));

  it.each(closed)("$title", async (test) => {
    const a = recordsOfA();
    const b = recordsOfB();
    const unknown = await callCase(server, test, accountB, unknownRecords, recordsOf(b));
    expectUnknownAnswer(test, unknown.answer);
    const foreign = await callCase(server, test, accountB, recordsOf(a), recordsOf(b));
    expect(outcomeOf(foreign, unknown)).toEqual(outcomeOf(unknown));
    // The owner, with the same call, is not answered as if the record were unknown.
    const own = await callCase(server, test, accountA, recordsOf(a), recordsOf(a));
    expect(outcomeOf(own, unknown)).not.toEqual(outcomeOf(unknown));
  });
});

describe("the payer-facing reads by token take any caller", () => {
  const open = cases.filter((test) => test.operation.operationId in openToAnyCaller);

  it.each(open)("$title", async (test) => {
    const a = recordsOfA();
    const b = recordsOfB();
    const unknown = await callCase(server, test, accountB, unknownRecords, recordsOf(b));
    expect(unknown.answer.status).toBe(404);
    const own = await callCase(server, test, accountA, recordsOf(a), recordsOf(a));
    expect(own.answer.status, own.answer.text).toBe(test.operation.successStatus);
    const foreign = await callCase(server, test, accountB, recordsOf(a), recordsOf(b));
    expect(outcomeOf(foreign)).toEqual(outcomeOf(own));
  });
});

describe("what another account could do with a request id or a token", () => {
  it("cannot ask for a cross-chain payment intent of another account's request", async () => {
    const requestId = await recordsOfA().one("request");
    const query = new URLSearchParams({ chain: "OPTIMISM", token: "USDC", wallet: payer });
    const foreign = await server.call("GET", `/v2/request/${requestId}/pay?${query}`, accountB.apiKey);
    const unknownId = unknownRecordId("request");
    const unknown = await server.call("GET", `/v2/request/${unknownId}/pay?${query}`, accountB.apiKey);
    expect(unknown.status).toBe(404);
    expect(
      outcomeOf({ answer: foreign, target: [requestId] }, { answer: unknown, target: [unknownId] }),
    ).toEqual(outcomeOf({ answer: unknown, target: [unknownId] }));
  });

  it("cannot lock another account's link by reporting a payment of it", async () => {
    const token = await recordsOfA().one("link");
    const report = { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC", payerAddress: payer };
    const foreign = await server.call("POST", `/v2/secure-payments/${token}/intent`, {
      ...accountB.clientId,
      body: report,
    });
    expect(foreign.status).toBe(404);
    const check = await server.call("GET", `/v2/secure-payments/${token}`);
    expect(check.status, check.text).toBe(200);
  });
});
