import type { SpecOperation } from "../spec/operations.ts";
import { isObject, type JsonObject } from "../spec/spec-document.ts";
import { judgeAnswer } from "./answer-verdict.ts";
import { acceptedCredentials, missingCredentialReason } from "./auth-checks.ts";
import { exchange, type SuiteContext, type Verdict } from "./check-kit.ts";
import { credentialHeaders, type MissingCredential } from "./target.ts";
import { type ContractRequest, jsonBody, listValidCalls } from "./valid-inputs.ts";

/** Thrown by a step whose answer was wrong: the scenario stops there, with what went wrong. */
class StepFailed extends Error {}

/** What a step may change in the operation's first valid call (built from the spec's examples). */
export interface StepInput {
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** The body to send, replacing the example's. */
  body?: unknown;
  /** Credential headers instead of the operation's first accepted credential. */
  headers?: Record<string, string>;
}

/**
 * One stateful scenario: a series of calls where each reads what the earlier ones wrote. Every
 * answer is judged against the spec (status, headers, body); the first wrong one ends the run.
 */
export class ScenarioRun {
  readonly #context: SuiteContext;
  readonly #operations: ReadonlyMap<string, SpecOperation>;
  readonly #issues: string[] = [];
  #lastStatus: number | undefined;

  constructor(context: SuiteContext, operations: ReadonlyMap<string, SpecOperation>) {
    this.#context = context;
    this.#operations = operations;
  }

  /** Sends `operationId` and returns its JSON body (`undefined` when empty) if the status is one of `expected`. */
  async send(operationId: string, input: StepInput, expected: number[]): Promise<JsonObject | undefined> {
    const operation = this.#operations.get(operationId);
    const [call] = operation ? listValidCalls(operation) : [];
    const [credentials] = operation ? acceptedCredentials(this.#context, operation) : [];
    if (!operation || !call || !credentials)
      throw this.fail(`${operationId}: not in the spec or no credential`);
    const request: ContractRequest = {
      ...call.request,
      path: { ...call.request.path, ...input.path },
      query: { ...call.request.query, ...input.query },
      ...(input.body === undefined ? {} : { body: jsonBody(input.body, operation.body?.mediaType) }),
    };
    const answer = await exchange(
      this.#context,
      operation,
      request,
      input.headers ?? credentialHeaders(credentials),
    );
    this.#lastStatus = answer.status;
    const issues = judgeAnswer(this.#context.validator, operation, answer, expected);
    if (issues.length > 0) throw this.fail(`${operationId}: ${issues.join("; ")}`);
    if (answer.text === "") return undefined;
    const body: unknown = JSON.parse(answer.text);
    return isObject(body) ? body : { items: body };
  }

  /** A copy of a named request-body example of `operationId` (the first by default), to send changed. */
  example(operationId: string, name?: string): JsonObject {
    const operation = this.#operations.get(operationId);
    const calls = operation ? listValidCalls(operation) : [];
    const call = name === undefined ? calls[0] : calls.find((entry) => entry.exampleName === name);
    const value = call?.bodyValue;
    if (!isObject(value)) throw this.fail(`${operationId}: the spec has no request-body example`);
    return structuredClone(value);
  }

  /** Records a wrong value the answers hold; the scenario goes on. */
  expect(holds: boolean, issue: string): void {
    if (!holds) this.#issues.push(issue);
  }

  fail(issue: string): Error {
    this.#issues.push(issue);
    return new StepFailed(issue);
  }

  /** Runs the scenario's steps and turns what they found into the check's verdict. */
  async verdict(summary: string, steps: () => Promise<void>): Promise<Verdict> {
    try {
      await steps();
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
    }
    return {
      issues: this.#issues,
      summary,
      ...(this.#lastStatus === undefined ? {} : { status: this.#lastStatus }),
    };
  }
}

/** Why a scenario cannot run on this target: a stateless one, or a credential one of its calls needs. */
export function scenarioNotRunReason(
  context: SuiteContext,
  operations: SpecOperation[],
  statelessReason: string,
): string | MissingCredential | undefined {
  if (!context.options.stateful) return statelessReason;
  const lacking = operations.find((operation) => acceptedCredentials(context, operation).length === 0);
  return lacking ? missingCredentialReason(lacking) : undefined;
}
