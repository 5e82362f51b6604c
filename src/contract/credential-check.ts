import { readPathOperations, type SpecOperation } from "../spec/operations.ts";
import type { SpecDocument } from "../spec/spec-document.ts";
import { NoAnswerError, sendRequest } from "./http-exchange.ts";
import {
  accepts,
  type ContractTarget,
  type Credentials,
  credentialHeaders,
  describeCredentials,
  isApiKey,
  isOrchestratorKey,
  listCredentials,
} from "./target.ts";
import { listValidCalls } from "./valid-inputs.ts";

/** The first read without path parameters that this kind of credential may call. */
function probeFor(credentials: Credentials, operations: SpecOperation[]): SpecOperation | undefined {
  return operations.find(
    (operation) =>
      operation.method === "GET" && operation.pathParams.length === 0 && accepts(operation, credentials),
  );
}

/**
 * Sends one read with each credential before the suite runs: a refused credential would fail every
 * check of the suite, so it is reported once instead. Answers why a credential was refused, or
 * undefined when every one was accepted.
 */
export async function findRefusedCredential(
  target: ContractTarget,
  spec: SpecDocument,
  timeoutMs: number,
): Promise<string | undefined> {
  const operations = readPathOperations(spec);
  for (const credentials of listCredentials(target)) {
    const probe = probeFor(credentials, operations);
    const [call] = probe ? listValidCalls(probe) : [];
    if (!probe || !call) continue;
    let status: number;
    try {
      ({ status } = await sendRequest(
        target.baseUrl,
        probe,
        call.request,
        credentialHeaders(credentials),
        timeoutMs,
      ));
    } catch (error) {
      // A target that does not answer is the checks' to report (they stop after a few).
      if (error instanceof NoAnswerError) return undefined;
      throw error;
    }
    if (status === 401 || status === 403) {
      const which = describeCredentials(credentials);
      return `${target.baseUrl} refused the ${which} (${probe.method} ${probe.key} answered ${status}): check the ${which}${isApiKey(credentials) || isOrchestratorKey(credentials) ? "" : " and its origin"} and run again.`;
    }
  }
  return undefined;
}
