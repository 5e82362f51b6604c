import { readPathOperations, type SpecOperation } from "../spec/operations.ts";
import type { SchemaValidator } from "../spec/schema-validator.ts";
import type { SpecDocument } from "../spec/spec-document.ts";
import { describeAnswer, judgeAnswer } from "./answer-verdict.ts";
import { undoneAfterSuccess } from "./fixtures.ts";
import { type Exchange, NoAnswerError, SessionUnavailableError, sendRequest } from "./http-exchange.ts";
import {
  type CheckResult,
  type ContractSuiteOptions,
  type ContractTarget,
  isApiKey,
  isOrchestratorKey,
  listCredentials,
  MissingCredential,
  type PlannedCheck,
} from "./target.ts";
import type { ContractRequest } from "./valid-inputs.ts";

/** Everything a check needs: the spec, its validator, the target and the options. */
export interface SuiteContext {
  spec: SpecDocument;
  validator: SchemaValidator;
  target: ContractTarget;
  options: ContractSuiteOptions;
}

/** The verdict of a check body: what was wrong (empty when it passed) and the status answered, if any. */
export interface Verdict {
  issues: string[];
  summary: string;
  status?: number;
}

const defaultTimeoutMs = 15_000;

/** Shorter values are not secrets worth hiding, and replacing them would garble the text. */
const shortestRedactedKey = 4;

/** Replaces every API key and orchestrator key of the target in a text that may quote a server's answer. */
export function redactSecrets(target: ContractTarget, text: string): string {
  let redacted = text;
  for (const credentials of listCredentials(target)) {
    if (isApiKey(credentials) && credentials.apiKey.length >= shortestRedactedKey) {
      redacted = redacted.replaceAll(credentials.apiKey, "[api key]");
    }
    if (isOrchestratorKey(credentials) && credentials.orchestratorKey.length >= shortestRedactedKey) {
      redacted = redacted.replaceAll(credentials.orchestratorKey, "[orchestrator key]");
    }
  }
  return redacted;
}

export async function exchange(
  context: SuiteContext,
  operation: SpecOperation,
  request: ContractRequest,
  headers: Record<string, string>,
): Promise<Exchange> {
  const timeout = context.options.timeoutMs ?? defaultTimeoutMs;
  const answer = await sendRequest(context.target.baseUrl, operation, request, headers, timeout);
  const undo = undoneAfterSuccess[operation.operationId];
  if (undo && answer.status >= 200 && answer.status < 300) {
    const undoing = readPathOperations(context.spec).find(
      (candidate) => candidate.operationId === undo.operationId,
    );
    const created = JSON.parse(answer.text) as Record<string, unknown>;
    if (undoing) {
      await sendRequest(
        context.target.baseUrl,
        undoing,
        { path: undo.path(created), query: {}, headers: {} },
        headers,
        timeout,
      );
    }
  }
  return answer;
}

/** Sends a request and judges the answer against the expected statuses and the spec. */
export async function sendAndJudge(
  context: SuiteContext,
  operation: SpecOperation,
  request: ContractRequest,
  headers: Record<string, string>,
  expectedStatuses: number[],
): Promise<Verdict> {
  const answer = await exchange(context, operation, request, headers);
  return {
    issues: judgeAnswer(context.validator, operation, answer, expectedStatuses),
    summary: describeAnswer(answer),
    status: answer.status,
  };
}

export interface CheckDefinition {
  operationId: string;
  check: string;
  notRunReason?: string | MissingCredential | undefined;
  mockShortfall?: string | undefined;
  body(): Promise<Verdict>;
}

/**
 * Wraps a check body into a planned check: a check that is not run reports `needs-stateful-server`;
 * on a stateless target a known mock shortfall that is not a 5xx does too; anything else passes or fails.
 */
export function defineCheck(context: SuiteContext, definition: CheckDefinition): PlannedCheck {
  const { operationId, check, notRunReason, mockShortfall } = definition;
  const result = (outcome: CheckResult["outcome"], reason: string): CheckResult => ({
    operationId,
    check,
    outcome,
    reason: redactSecrets(context.target, reason),
  });
  const shortfall = context.options.stateful ? undefined : mockShortfall;
  return {
    operationId,
    check,
    ...(notRunReason !== undefined ? { notRunReason } : {}),
    ...(shortfall !== undefined ? { mockShortfall: shortfall } : {}),
    async run() {
      if (notRunReason instanceof MissingCredential) return result("needs-credential", notRunReason.reason);
      if (notRunReason !== undefined) return result("needs-stateful-server", notRunReason);
      let verdict: Verdict;
      try {
        verdict = await definition.body();
      } catch (error) {
        if (error instanceof NoAnswerError || error instanceof SessionUnavailableError) {
          return result("fail", error.message);
        }
        throw error;
      }
      if (verdict.issues.length === 0) return result("pass", verdict.summary);
      const reason = verdict.issues.join("; ");
      if (shortfall !== undefined && verdict.status !== undefined && verdict.status < 500) {
        return result("needs-stateful-server", `${shortfall}. Answered: ${reason}`);
      }
      return result("fail", reason);
    },
  };
}
