import type { NamedExample } from "../spec/operations.ts";
import { isObject } from "../spec/spec-document.ts";

/** An invalid body that no schema keyword describes, built from the operation's own named examples. */
export interface ExtraInvalidBody {
  check: string;
  build(examples: NamedExample[]): unknown;
  /** Set when only a server that applies the service's rules can reject it (the schema allows it). */
  needsState?: string;
}

const crossFieldRule = "the rule spans several fields and is not in the schema, which is all Prism checks";

function example(examples: NamedExample[], name: string): Record<string, unknown> {
  const found = examples.find((entry) => entry.name === name)?.value;
  if (!isObject(found)) throw new Error(`the request-body example "${name}" is missing from the spec`);
  return structuredClone(found);
}

/** A batch whose second item pays on another network than the first (the spec's mixedNetworks problem). */
function withMixedNetworks(body: Record<string, unknown>): Record<string, unknown> {
  const requests = body.requests as Record<string, unknown>[];
  const second = requests[1];
  if (!second) throw new Error("the batch example needs two items to mix networks");
  second.paymentCurrency = "USDC-arbitrum-one";
  return body;
}

/** Per operationId: invalid bodies beyond those derived from the schema. */
export const extraInvalidBodies: Record<string, ExtraInvalidBody[]> = {
  createBatchPayout: [
    {
      check: "body: both requests and requestIds",
      build: (examples) => ({
        ...example(examples, "newRequests"),
        requestIds: example(examples, "existingRequestIds").requestIds,
      }),
    },
    {
      check: "body: items on different networks",
      build: (examples) => withMixedNetworks(example(examples, "newRequests")),
      needsState: crossFieldRule,
    },
  ],
  createSecurePayment: [
    {
      check: "body: items on different networks",
      build: (examples) => withMixedNetworks(example(examples, "batchPayment")),
      needsState: crossFieldRule,
    },
  ],
};

/**
 * Statuses a valid call may also get because its example names what the target never issued:
 * the example's wallet challenge is refused as unknown (the signed sign-in is a scenario).
 */
export const unissuedExampleStatuses: Record<string, number[]> = {
  verifyWalletChallenge: [401],
};

/**
 * Valid calls whose effect would change the answers of the checks that follow, undone as soon as
 * they are answered: a fault created through the sandbox API is deleted at once, by the
 * operation named here, with the path its answer gives.
 */
export const undoneAfterSuccess: Record<
  string,
  { operationId: string; path: (created: Record<string, unknown>) => Record<string, string> }
> = {
  createSandboxFault: {
    operationId: "deleteSandboxFault",
    path: (created) => ({ faultId: String(created.id) }),
  },
};
