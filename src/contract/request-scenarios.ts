import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { SpecOperation } from "../spec/operations.ts";
import { isObject } from "../spec/spec-document.ts";
import { readTypedData } from "../wire/typed-data.ts";
import { judgeAnswer } from "./answer-verdict.ts";
import { acceptedCredentials } from "./auth-checks.ts";
import { exchange, type SuiteContext, type Verdict } from "./check-kit.ts";
import { credentialHeaders } from "./target.ts";
import { jsonBody, listValidCalls } from "./valid-inputs.ts";

/** One call of a scenario: the operation, its path values and body, and the status it must answer. */
interface Step {
  label: string;
  operation: SpecOperation;
  path?: Record<string, string>;
  body?: unknown;
  expect: number;
}

/** Thrown by a step whose answer is not the one expected; the scenario's verdict lists why. */
class StepFailed extends Error {
  constructor(
    readonly issues: string[],
    readonly status: number | undefined,
  ) {
    super(issues.join("; "));
  }
}

/** Sends one step and answers its JSON body (undefined for an empty one), or throws StepFailed. */
async function send(context: SuiteContext, step: Step): Promise<unknown> {
  const [credentials] = acceptedCredentials(context, step.operation);
  if (!credentials) throw new StepFailed([`${step.label}: no credential to call it with`], undefined);
  const request = {
    path: step.path ?? {},
    query: {},
    headers: {},
    ...(step.body === undefined ? {} : { body: jsonBody(step.body) }),
  };
  const answer = await exchange(context, step.operation, request, credentialHeaders(credentials));
  const issues = judgeAnswer(context.validator, step.operation, answer, [step.expect]);
  if (issues.length > 0)
    throw new StepFailed(
      issues.map((issue) => `${step.label}: ${issue}`),
      answer.status,
    );
  return answer.text === "" ? undefined : JSON.parse(answer.text);
}

/** Runs a scenario's steps; a failed step becomes the verdict's issues. */
async function scenario(run: () => Promise<{ summary: string; issues?: string[] }>): Promise<Verdict> {
  try {
    const { summary, issues = [] } = await run();
    return { issues, summary };
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    return {
      issues: error.issues,
      summary: "",
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
}

const field = (body: unknown, name: string): unknown => (isObject(body) ? body[name] : undefined);

/** POST /v2/request, then GET /v2/request/{requestId}: the request just created, unpaid. */
export function createThenReadRequest(
  context: SuiteContext,
  create: SpecOperation,
  read: SpecOperation,
): Promise<Verdict> {
  return scenario(async () => {
    const [call] = listValidCalls(create);
    const created = await send(context, {
      label: "create",
      operation: create,
      body: call?.bodyValue,
      expect: 201,
    });
    const requestId = String(field(created, "requestId"));
    const details = await send(context, { label: "read", operation: read, path: { requestId }, expect: 200 });
    const issues = ["requestId", "paymentReference"]
      .filter((name) => field(details, name) !== field(created, name))
      .map((name) => `${name} differs: created ${field(created, name)}, read ${field(details, name)}`);
    if (field(details, "hasBeenPaid") !== false) issues.push("a request just created reads as paid");
    return { issues, summary: `created request ${requestId}, then 200 with it, unpaid` };
  });
}

/**
 * POST /v2/payouts with a recurrence whose payer is a key the suite makes up, then
 * POST /v2/payouts/recurring/{id} with another key's signature of the permit (400) and with the
 * payer's (201), and GET /v2/payouts/recurring/{id} (active): the signature is checked for real.
 */
export function signRecurringPayout(
  context: SuiteContext,
  create: SpecOperation,
  sign: SpecOperation,
  read: SpecOperation,
): Promise<Verdict> {
  return scenario(async () => {
    const example = listValidCalls(create).find((call) => isObject(field(call.bodyValue, "recurrence")));
    if (!example)
      return { summary: "", issues: ["createPayout has no request-body example with a recurrence"] };
    const payer = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const body = example.bodyValue as Record<string, unknown>;
    const recurrence = { ...(body.recurrence as Record<string, unknown>), payer: payer.address };
    const created = await send(context, {
      label: "create",
      operation: create,
      body: { ...body, recurrence },
      expect: 201,
    });
    const path = { id: String(field(created, "id")) };
    if (!isObject(field(created, "recurringPaymentPermit"))) {
      return {
        summary: "",
        issues: ["create: a payout with a recurrence answered no recurringPaymentPermit"],
      };
    }
    const permit = readTypedData(field(created, "recurringPaymentPermit"));
    // Another wallet's signature must be refused, the payer's accepted.
    for (const [label, signer, expect] of [
      ["another wallet signs", stranger, 400],
      ["the payer signs", payer, 201],
    ] as const) {
      const permitSignature = await signer.signTypedData(permit as never);
      await send(context, { label, operation: sign, path, body: { permitSignature }, expect });
    }
    const progress = await send(context, { label: "read", operation: read, path, expect: 200 });
    const issues =
      field(progress, "status") === "active" ? [] : [`read: status ${field(progress, "status")}, not active`];
    return {
      issues,
      summary: `recurring payout ${path.id}: another wallet's signature 400, the payer's 201, then active`,
    };
  });
}
