import { describe, expect, it } from "vitest";
import {
  type CreateServerOptions,
  createMemoryStore,
  createServer,
  type Store,
} from "../../src/server/index.ts";
import { ProblemError } from "../../src/server/problems.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { createSecurePayment, problemErrors, startTestServer, usdcOnBase } from "./helpers.ts";

/** A store whose secure payments come back on a network name the spec does not allow. */
function corruptingStore(): Store {
  const store = createMemoryStore();
  return {
    ...store,
    securePayments: {
      ...store.securePayments,
      get: async (token) => {
        const record = await store.securePayments.get(token);
        return record && { ...record, network: "Not A Network" };
      },
    },
  };
}

describe("response validation", () => {
  it("is on by default: an answer that breaks the spec becomes a logged 500, never sent", async () => {
    const server = await startTestServer({ store: corruptingStore() });
    try {
      const { token } = await createSecurePayment(server);
      const answer = await server.call("GET", `/v2/secure-payments/${token}`);
      problemErrors(answer, "/problems/internal-error", 500);
      expect(answer.text).not.toContain("Not A Network");
      expect(answer.body.detail).toBe(
        "An unexpected error occurred; retry later and quote the request id if it persists.",
      );
      expect(server.loggedErrors).toHaveLength(1);
      expect(server.loggedErrors[0]).toContain(
        `request ${answer.body.requestId} (GET /v2/secure-payments/{token}) failed`,
      );
    } finally {
      await server.close();
    }
  });

  it("turns a problem with a status the operation does not document into a logged 500", async () => {
    const store = createMemoryStore();
    const server = await startTestServer({
      store: {
        ...store,
        // Refuses only what a creation writes: the webhook worker's transactions go through.
        withTransaction: (work) =>
          store.withTransaction((tx) =>
            work({
              ...tx,
              securePayments: {
                ...tx.securePayments,
                put: () =>
                  Promise.reject(new ProblemError("securePaymentCompleted", "Not a creation's answer.")),
              },
            }),
          ),
      },
    });
    try {
      const answer = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] } });
      problemErrors(answer, "/problems/internal-error", 500);
      expect(server.loggedErrors).toEqual([
        `request ${answer.body.requestId} (POST /v2/secure-payments) failed: answered 409, which the operation does not document: Not a creation's answer.`,
      ]);
    } finally {
      await server.close();
    }
  });

  it("can be switched off for speed", async () => {
    const server = await startTestServer({ store: corruptingStore(), validateResponses: false });
    try {
      const { token } = await createSecurePayment(server);
      const answer = await server.call("GET", `/v2/secure-payments/${token}`);
      expect(answer.status).toBe(200);
      expect(answer.body.network).toBe("Not A Network");
    } finally {
      await server.close();
    }
  });
});

describe("server gaps", () => {
  it("refuses to start on a spec with an operation that has no handler, naming it", () => {
    const spec = structuredClone(loadBundledSpec()) as NonNullable<CreateServerOptions["spec"]>;
    const paths = spec.paths as Record<string, unknown>;
    paths["/v2/unhandled"] = {
      get: {
        operationId: "getUnhandled",
        summary: "Not implemented by any handler",
        tags: ["Sandbox"],
        security: [{ ApiKeyAuth: [] }],
        responses: { "200": { description: "never" } },
      },
    };
    expect(() => createServer({ spec })).toThrow(
      "the server cannot serve this spec: no handler for operation getUnhandled",
    );
  });

  it("refuses to start on a spec operation without a success status, naming it", () => {
    const spec = structuredClone(loadBundledSpec()) as NonNullable<CreateServerOptions["spec"]>;
    const clock = (spec.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
      "/sandbox/clock"
    ];
    delete clock?.get?.responses["200"];
    expect(() => createServer({ spec })).toThrow(
      "the server cannot serve this spec: no documented success status for getSandboxClock",
    );
  });

  it("refuses to start on a spec that lacks an operation it has a handler for, naming it", () => {
    const spec = structuredClone(loadBundledSpec()) as NonNullable<CreateServerOptions["spec"]>;
    delete (spec.paths as Record<string, unknown>)["/sandbox/clock"];
    expect(() => createServer({ spec })).toThrow(
      "the server cannot serve this spec: handler for an operation the spec does not have: getSandboxClock, setSandboxClock",
    );
  });

  it("refuses a configuration that does not pass the schema", () => {
    expect(() => createServer({ config: { accounts: [] } })).toThrow(
      "the server configuration is not a valid sandbox configuration:\n  - accounts: must have at least 1 item, got []",
    );
  });
});
