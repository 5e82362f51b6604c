import { Agent, request } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { buildUrl } from "../contract/http-exchange.ts";
import { type ContractRequest, listValidCalls } from "../contract/valid-inputs.ts";
import { fillArrays, readBodyLimits } from "../spec/body-limits.ts";
import type { SpecOperation } from "../spec/operations.ts";
import type { SpecDocument } from "../spec/spec-document.ts";
import type { PathOperationId } from "./operations/operation-types.ts";

/** How an operation is warmed up: its rounds, and how many of the last send full bodies (1 by default). */
export interface WarmUpPlan {
  rounds: number;
  fullBodyRounds?: number;
}

/**
 * Compiled before the server answers anyone, in this order: an integration's first calls, a
 * payment link or a batch payout and the currencies it can use. Every other operation (the
 * payment page's calls come once a person opens the link) compiles when the server is quiet, some
 * 20 ms each, or at its first request if that comes sooner.
 *
 * Each one's example calls run this many rounds, each call on a connection of its own: the code
 * every request runs (accepting a connection, parsing, the validator, the answer) has run often
 * enough by then that the first caller's request costs about what the next ones cost, not the
 * several times as much a first run of that code costs. The last rounds send each body filled to
 * the limits of its arrays (100 payees), so that the code run once per item has run a few hundred
 * times; the batch twice, for its ABI encoding of 100 transfers to be compiled by V8's optimising
 * compiler before a first caller's batch. The cheap currency list runs last: it warms the path every
 * request shares, which is then the warmest when the first caller comes. Five rounds of it, not ten:
 * the five it saves pay the start-up for the batch's second full round.
 */
export const firstCalledOperations: Readonly<Partial<Record<PathOperationId, WarmUpPlan>>> = {
  createSecurePayment: { rounds: 5 },
  createBatchPayout: { rounds: 3, fullBodyRounds: 2 },
  listCurrencies: { rounds: 5 },
};

/** The header a warm-up request carries its token in; no other request can know the token. */
export const warmUpHeader = "x-payreq-warm-up";

/** How long the server must have had no request before the background warm-up compiles the next operation. */
export const quietMsBeforeWarmUp = 200;

export interface WarmUpTarget {
  baseUrl: string;
  credential: { header: string; value: string };
  token: string;
}

/** How the first-called operations are warmed up: their plans, and the spec their bodies' limits come from. */
export interface WarmUpPlans {
  plans: Readonly<Partial<Record<string, WarmUpPlan>>>;
  spec: SpecDocument;
}

/** Sends one request and resolves with its status once the answer is read. */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: Agent,
) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode ?? 0));
      answer.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * Valid calls of the operation, from the spec's examples when it has them: with its required
 * parameters, and again with every query parameter that has an example, so that both the plain
 * and the filtered ways of answering it have run.
 */
function exampleCalls(operation: SpecOperation): ContractRequest[] {
  let call: ContractRequest;
  try {
    call = listValidCalls(operation)[0]?.request ?? { path: {}, query: {}, headers: {} };
  } catch {
    // No example to build one from: a request the validator refuses compiles its schemas as well.
    return [
      {
        path: Object.fromEntries(operation.pathParams.map((name) => [name, "warm-up"])),
        query: {},
        headers: {},
      },
    ];
  }
  const optional = operation.parameters.filter(
    (parameter) => parameter.in === "query" && !parameter.required && parameter.example !== undefined,
  );
  if (optional.length === 0) return [call];
  const query = { ...call.query };
  for (const parameter of optional) query[parameter.name] = String(parameter.example);
  return [call, { ...call, query }];
}

/** The call with its JSON body's arrays filled to their `maxItems` (fillArrays); other calls as they are. */
function withFullBody(operation: SpecOperation, call: ContractRequest, spec: SpecDocument): ContractRequest {
  const limits = operation.body && readBodyLimits(spec, operation.body.schema);
  if (!call.body || !limits) return call;
  const text = JSON.stringify(fillArrays(JSON.parse(call.body.text), limits));
  return { ...call, body: { ...call.body, text } };
}

/**
 * Compiles and runs the validator's schemas and the handler of each operation, in order: valid
 * calls built from the spec's examples (exampleCalls), marked by the warm-up token, as many rounds
 * as `warmUp` gives for the operation, the last ones with full bodies (once for the others). The
 * server answers them like any other,
 * except that the handler works on a scratch context of its own (create-server.ts), so nothing
 * the server keeps changes; the answer compiles the response schemas. Each call opens a
 * connection of its own, as a new client's first request does. A 5xx means the spec cannot be
 * served. Stops between requests once `signal` aborts. node:http rather than fetch: loading fetch
 * would cost the start-up more than the requests.
 */
export async function warmUpOperations(
  target: WarmUpTarget,
  operations: readonly SpecOperation[],
  signal?: AbortSignal,
  warmUp?: WarmUpPlans,
): Promise<void> {
  const failures: string[] = [];
  const agent = new Agent({ keepAlive: false, maxSockets: 1 });
  try {
    for (const operation of operations) {
      const calls = exampleCalls(operation);
      const { rounds, fullBodyRounds = 1 } = warmUp?.plans[operation.operationId] ?? { rounds: 1 };
      const plan = Array.from({ length: rounds }, (_, round) =>
        warmUp && rounds > 1 && round >= rounds - fullBodyRounds
          ? calls.map((call) => withFullBody(operation, call, warmUp.spec))
          : calls,
      ).flat();
      for (const call of plan) {
        if (signal?.aborted) break;
        const headers = {
          ...call.headers,
          [target.credential.header]: target.credential.value,
          [warmUpHeader]: target.token,
          ...(call.body ? { "content-type": call.body.contentType } : {}),
        };
        const url = buildUrl(target.baseUrl, operation, call);
        const status = await send(url, operation.method, headers, call.body?.text, agent);
        if (status >= 500) failures.push(`${operation.method} ${operation.key}: ${status}`);
      }
    }
  } finally {
    agent.destroy();
  }
  if (failures.length > 0)
    throw new Error(`the spec's operations cannot be served:\n  ${failures.join("\n  ")}`);
}

/**
 * Warms the operations up one at a time, each once no request has come for `quietMsBeforeWarmUp`:
 * a compile never holds up a burst of requests, and at most one compile is in the way of a
 * request that comes during it.
 */
export async function warmUpWhenQuiet(
  target: WarmUpTarget,
  operations: readonly SpecOperation[],
  quietForMs: () => number,
  signal: AbortSignal,
): Promise<void> {
  for (const operation of operations) {
    for (let quiet = quietForMs(); quiet < quietMsBeforeWarmUp; quiet = quietForMs()) {
      await delay(quietMsBeforeWarmUp - quiet, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
    }
    await warmUpOperations(target, [operation], signal);
  }
}

/** The operations in warm-up order: the first-called ones in their listed order, then the service's, then the sandbox's. */
export function warmUpOrder(operations: readonly SpecOperation[]): {
  first: SpecOperation[];
  later: SpecOperation[];
} {
  const isFirst = (operation: SpecOperation) => Object.hasOwn(firstCalledOperations, operation.operationId);
  const isSandbox = (operation: SpecOperation) => operation.key.startsWith("/sandbox/");
  const paths = operations.filter((operation) => operation.kind === "path");
  const first = Object.keys(firstCalledOperations).map((id) =>
    paths.find((operation) => operation.operationId === id),
  );
  const missing = Object.keys(firstCalledOperations).filter((_, index) => first[index] === undefined);
  if (missing.length > 0)
    throw new Error(`firstCalledOperations names no operation of the spec: ${missing.join(", ")}`);
  return {
    first: first as SpecOperation[],
    later: [
      ...paths.filter((operation) => !isFirst(operation) && !isSandbox(operation)),
      ...paths.filter((operation) => !isFirst(operation) && isSandbox(operation)),
    ],
  };
}
