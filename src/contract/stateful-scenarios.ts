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
    if (!isDeepStrictEqual(details.requestIds, body.requestIds)) {
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

/** A scenario: the check's name, the operation it is reported under, and the operations it calls. */
interface Scenario {
  operationId: string;
  check: string;
  calls: string[];
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
];

/** Checks that only a server keeping state can pass: what one call creates, the next one finds. */
export function planStatefulScenarios(context: SuiteContext, operations: SpecOperation[]): PlannedCheck[] {
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const planned = scenarios.flatMap((scenario) => {
    const calls = scenario.calls.map((operationId) => byId.get(operationId));
    if (calls.some((operation) => operation === undefined)) return [];
    return [
      defineCheck(context, {
        operationId: scenario.operationId,
        check: scenario.check,
        notRunReason: context.options.stateful ? undefined : prismIsStateless,
        body: () => scenario.run(context, calls as SpecOperation[]),
      }),
    ];
  });
  return [...planned, ...planV2Scenarios(context, operations)];
}
