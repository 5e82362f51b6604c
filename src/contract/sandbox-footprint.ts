import { readPathOperations, type SpecOperation } from "../spec/operations.ts";
import { isObject, type SpecDocument } from "../spec/spec-document.ts";
import { NoAnswerError, sendRequest } from "./http-exchange.ts";
import { type ContractTarget, credentialHeaders, listCredentials } from "./target.ts";
import { type ContractRequest, jsonBody } from "./valid-inputs.ts";

/**
 * What the suite changes on a reference server's sandbox: its valid calls move the sandbox clock
 * and register webhook endpoints. A footprint is taken before the run and put back after it, so
 * that running the suite leaves the target's clock and endpoints as it found them.
 */
export interface SandboxFootprint {
  /** Puts the clock back and deletes the endpoints the run registered; says what it did. */
  restore(): Promise<string[]>;
}

interface SandboxOperations {
  getClock: SpecOperation;
  setClock: SpecOperation;
  listEndpoints: SpecOperation;
  deleteEndpoint: SpecOperation;
}

function findSandboxOperations(spec: SpecDocument): SandboxOperations | undefined {
  const byId = new Map(readPathOperations(spec).map((operation) => [operation.operationId, operation]));
  const getClock = byId.get("getSandboxClock");
  const setClock = byId.get("setSandboxClock");
  const listEndpoints = byId.get("listSandboxWebhookEndpoints");
  const deleteEndpoint = byId.get("deleteSandboxWebhookEndpoint");
  if (!getClock || !setClock || !listEndpoints || !deleteEndpoint) return undefined;
  return { getClock, setClock, listEndpoints, deleteEndpoint };
}

const noInputs = (): ContractRequest => ({ path: {}, query: {}, headers: {} });

/**
 * Takes the footprint when the target answers the sandbox API (the reference server does; a real
 * deployment or a mock does not, and then there is nothing to restore).
 */
export async function takeSandboxFootprint(
  target: ContractTarget,
  spec: SpecDocument,
  timeoutMs: number,
): Promise<SandboxFootprint | undefined> {
  const operations = findSandboxOperations(spec);
  const [credentials] = listCredentials(target);
  if (!operations || !credentials) return undefined;
  const headers = credentialHeaders(credentials);
  const send = (operation: SpecOperation, request: ContractRequest) =>
    sendRequest(target.baseUrl, operation, request, headers, timeoutMs);

  const readClock = async () => {
    const answer = await send(operations.getClock, noInputs());
    if (answer.status !== 200) return undefined;
    const clock = JSON.parse(answer.text) as unknown;
    return isObject(clock) && typeof clock.now === "string" && typeof clock.offsetSeconds === "number"
      ? { now: clock.now, offsetSeconds: clock.offsetSeconds }
      : undefined;
  };
  const listEndpointIds = async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const query: Record<string, string> = cursor === undefined ? {} : { cursor };
      const answer = await send(operations.listEndpoints, { ...noInputs(), query });
      if (answer.status !== 200) return undefined;
      const page = JSON.parse(answer.text) as { endpoints?: { id?: unknown }[]; nextCursor?: unknown };
      for (const endpoint of page.endpoints ?? []) if (typeof endpoint.id === "string") ids.push(endpoint.id);
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return ids;
  };

  // A target that does not answer has nothing to restore; the checks report it, once each.
  const noAnswerAsUndefined = (error: unknown) => {
    if (error instanceof NoAnswerError) return undefined;
    throw error;
  };
  const clockBefore = await readClock().catch(noAnswerAsUndefined);
  const endpointsBefore = clockBefore ? await listEndpointIds().catch(noAnswerAsUndefined) : undefined;
  if (!clockBefore || !endpointsBefore) return undefined;

  const putBack = async (done: string[]) => {
    const clockAfter = await readClock();
    if (clockAfter && clockAfter.offsetSeconds !== clockBefore.offsetSeconds) {
      const drift = (clockBefore.offsetSeconds - clockAfter.offsetSeconds) * 1000;
      const now = new Date(Date.parse(clockAfter.now) + drift).toISOString();
      const moved = await send(operations.setClock, { ...noInputs(), body: jsonBody({ now }) });
      done.push(
        moved.status === 200
          ? "put the sandbox clock back where it was"
          : `could not put the sandbox clock back (${moved.status})`,
      );
    }
    const registered = ((await listEndpointIds()) ?? []).filter((id) => !endpointsBefore.includes(id));
    for (const endpointId of registered) {
      await send(operations.deleteEndpoint, { ...noInputs(), path: { endpointId } });
    }
    if (registered.length > 0) {
      done.push(`deleted the ${registered.length} webhook endpoints the run registered`);
    }
  };

  return {
    async restore() {
      const done: string[] = [];
      try {
        await putBack(done);
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        done.push(`stopped putting the sandbox back: ${error.message}`);
      }
      return done;
    },
  };
}
