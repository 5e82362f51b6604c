import { isDeepStrictEqual } from "node:util";
import type { SpecOperation } from "../spec/operations.ts";
import { isObject } from "../spec/spec-document.ts";
import { judgeAnswer } from "./answer-verdict.ts";
import { acceptedCredentials } from "./auth-checks.ts";
import { defineCheck, exchange, type SuiteContext, type Verdict } from "./check-kit.ts";
import { createThenReadRequest, signRecurringPayout } from "./request-scenarios.ts";
import { credentialHeaders, type PlannedCheck } from "./target.ts";
import { planV2Scenarios } from "./v2-scenarios.ts";
import { listValidCalls } from "./valid-inputs.ts";
import { signInWithNewWallet } from "./wallet-sign-in.ts";

const prismIsStateless =
  "Prism is stateless: it does not keep what it answers 201 to, and checks no signature";

async function createThenCheckToken(
  context: SuiteContext,
  create: SpecOperation,
  check: SpecOperation,
): Promise<Verdict> {
  const [call] = listValidCalls(create);
  const [credentials] = acceptedCredentials(context, create);
  if (!call || !credentials)
    return { issues: ["no valid call or credential for createSecurePayment"], summary: "" };
  const headers = credentialHeaders(credentials);
  const created = await exchange(context, create, call.request, headers);
  const createIssues = judgeAnswer(context.validator, create, created, [201]);
  if (createIssues.length > 0)
    return { issues: createIssues.map((issue) => `create: ${issue}`), summary: "" };
  const body = JSON.parse(created.text) as unknown;
  if (!isObject(body) || typeof body.token !== "string") {
    return { issues: ["create: the 201 body has no token"], summary: "" };
  }
  const tokenParameter = check.parameters.find((parameter) => parameter.in === "path")?.name ?? "token";
  const request = { path: { [tokenParameter]: body.token }, query: {}, headers: {} };
  const fetched = await exchange(context, check, request, headers);
  const issues = judgeAnswer(context.validator, check, fetched, [200]).map(
    (issue) => `check token: ${issue}`,
  );
  if (issues.length === 0) {
    const details = JSON.parse(fetched.text) as Record<string, unknown>;
    // The real service may leave requestIds out; when it sends them, they must be the created ones.
    if (details.requestIds !== undefined && !isDeepStrictEqual(details.requestIds, body.requestIds)) {
      issues.push(
        `requestIds differ: created ${JSON.stringify(body.requestIds)}, token answers ${JSON.stringify(details.requestIds)}`,
      );
    }
  }
  return {
    issues,
    summary: `created token ${body.token}, then 200 with the same requestIds`,
    status: fetched.status,
  };
}

/** The request ids a secure payment creation answered, with the credentials it was made with. */
async function createRequests(
  context: SuiteContext,
  create: SpecOperation,
): Promise<{ requestIds: string[]; headers: Record<string, string> } | { issues: string[] }> {
  const [call] = listValidCalls(create);
  const [credentials] = acceptedCredentials(context, create);
  if (!call || !credentials) return { issues: ["no valid call or credential for createSecurePayment"] };
  const headers = credentialHeaders(credentials);
  const created = await exchange(context, create, call.request, headers);
  const issues = judgeAnswer(context.validator, create, created, [201]);
  if (issues.length > 0) return { issues: issues.map((issue) => `create: ${issue}`) };
  const body = JSON.parse(created.text) as { requestIds?: unknown };
  const requestIds = Array.isArray(body.requestIds) ? body.requestIds.map(String) : [];
  return requestIds.length > 0
    ? { requestIds, headers }
    : { issues: ["create: the 201 body has no requestIds"] };
}

/**
 * What the service's own app reads of the pay calldata: `metadata.paymentTransactionIndex`, the
 * transaction it sends after every other one (the approvals).
 */
async function payCalldataNamesPayment(
  context: SuiteContext,
  create: SpecOperation,
  pay: SpecOperation,
): Promise<Verdict> {
  const created = await createRequests(context, create);
  if ("issues" in created) return { issues: created.issues, summary: "" };
  const requestParameter = pay.parameters.find((parameter) => parameter.in === "path")?.name ?? "requestId";
  const request = { path: { [requestParameter]: created.requestIds[0] as string }, query: {}, headers: {} };
  const answer = await exchange(context, pay, request, created.headers);
  const issues = judgeAnswer(context.validator, pay, answer, [200]);
  if (issues.length > 0) return { issues, summary: "", status: answer.status };
  const body = JSON.parse(answer.text) as { transactions?: unknown[]; metadata?: Record<string, unknown> };
  const count = body.transactions?.length ?? 0;
  const index = body.metadata?.paymentTransactionIndex;
  if (index !== count - 1) {
    issues.push(
      `metadata.paymentTransactionIndex is ${JSON.stringify(index)}; the payment is transaction ${count - 1} of ${count}`,
    );
  }
  return {
    issues,
    summary: `paymentTransactionIndex ${String(index)} of ${count} transactions`,
    status: answer.status,
  };
}

/** What the app reads of a batch payout: the list of approvals (empty or not), then `batchPaymentTransaction`. */
async function batchAnswerAsTheAppReadsIt(context: SuiteContext, batch: SpecOperation): Promise<Verdict> {
  const [call] = listValidCalls(batch);
  const [credentials] = acceptedCredentials(context, batch);
  if (!call || !credentials)
    return { issues: ["no valid call or credential for createBatchPayout"], summary: "" };
  const answer = await exchange(context, batch, call.request, credentialHeaders(credentials));
  const issues = judgeAnswer(context.validator, batch, answer, [201]);
  if (issues.length > 0) return { issues, summary: "", status: answer.status };
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (!Array.isArray(body.ERC20ApprovalTransactions))
    issues.push("ERC20ApprovalTransactions is not an array");
  if (!isObject(body.batchPaymentTransaction)) issues.push("batchPaymentTransaction is missing");
  return { issues, summary: "ERC20ApprovalTransactions and batchPaymentTransaction", status: answer.status };
}

/** A scenario: the check's name, the operation it is reported under, and the operations it calls. */
interface Scenario {
  operationId: string;
  check: string;
  calls: string[];
  /** True when a stateless mock can pass it too: it reads only what one call answers. */
  stateless?: boolean;
  run(context: SuiteContext, operations: SpecOperation[]): Promise<Verdict>;
}

const scenarios: Scenario[] = [
  {
    operationId: "checkSecurePaymentToken",
    check: "token of a secure payment just created -> 200 with its requestIds",
    calls: ["createSecurePayment", "checkSecurePaymentToken"],
    run: (context, [create, check]) =>
      createThenCheckToken(context, create as SpecOperation, check as SpecOperation),
  },
  {
    operationId: "getRequestStatus",
    check: "request just created -> 200 with its requestId and paymentReference, unpaid",
    calls: ["createRequest", "getRequestStatus"],
    run: (context, [create, read]) =>
      createThenReadRequest(context, create as SpecOperation, read as SpecOperation),
  },
  {
    operationId: "submitRecurringPaymentSignature",
    check:
      "recurring payout just created: another wallet's permit signature -> 400, the payer's -> 201, then active",
    calls: ["createPayout", "submitRecurringPaymentSignature", "getRecurringPaymentStatus"],
    run: (context, [create, sign, read]) =>
      signRecurringPayout(context, create as SpecOperation, sign as SpecOperation, read as SpecOperation),
  },
  {
    operationId: "getPayCalldata",
    check: "calldata of a request just created -> metadata.paymentTransactionIndex names the payment",
    calls: ["createSecurePayment", "getPayCalldata"],
    run: (context, [create, pay]) =>
      payCalldataNamesPayment(context, create as SpecOperation, pay as SpecOperation),
  },
  {
    operationId: "createBatchPayout",
    check: "answer as the service's app reads it -> ERC20ApprovalTransactions and batchPaymentTransaction",
    calls: ["createBatchPayout"],
    stateless: true,
    run: (context, [batch]) => batchAnswerAsTheAppReadsIt(context, batch as SpecOperation),
  },
  {
    operationId: "verifyWalletChallenge",
    check: "challenge signed by a new wallet -> 200 with a session cookie; the same challenge again -> 401",
    calls: ["createWalletChallenge", "verifyWalletChallenge"],
    run: (context, [challenge, verify]) =>
      signInWithNewWallet(context, challenge as SpecOperation, verify as SpecOperation),
  },
];

/**
 * Checks that only a server keeping state can pass (what one call creates, the next one finds),
 * and of the members the service's own app reads.
 */
export function planStatefulScenarios(context: SuiteContext, operations: SpecOperation[]): PlannedCheck[] {
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const planned = scenarios.flatMap((scenario) => {
    const calls = scenario.calls.map((operationId) => byId.get(operationId));
    if (calls.some((operation) => operation === undefined)) return [];
    return [
      defineCheck(context, {
        operationId: scenario.operationId,
        check: scenario.check,
        notRunReason: scenario.stateless || context.options.stateful ? undefined : prismIsStateless,
        body: () => scenario.run(context, calls as SpecOperation[]),
      }),
    ];
  });
  return [...planned, ...planV2Scenarios(context, operations)];
}
