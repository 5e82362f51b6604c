import express from "express";
import { beforeAll, describe, expect, it } from "vitest";
import { ChainInputError } from "../../src/chain/index.ts";
import type { ProblemBody } from "../../src/problems/problem-catalogue.ts";
import { answerErrors } from "../../src/server/http/error-handler.ts";
import { stateOf } from "../../src/server/http/request-state.ts";
import { readPathOperations } from "../../src/spec/operations.ts";

const createBatchPayout = readPathOperations().find((entry) => entry.operationId === "createBatchPayout");
const getPayCalldata = readPathOperations().find((entry) => entry.operationId === "getPayCalldata");

/** An app whose one route fails with `error` while answering `route`, behind the server's error boundary. */
function appFailingWith(error: Error, route = createBatchPayout) {
  const logged: string[] = [];
  const app = express();
  app.use((_req, res, next) => {
    Object.assign(stateOf(res), { requestId: "req-1", route });
    next();
  });
  app.post("/fail", () => {
    throw error;
  });
  app.use(answerErrors({ error: (message) => logged.push(message) }));
  return { app, logged };
}

async function send(error: Error, route = createBatchPayout) {
  const { app, logged } = appFailingWith(error, route);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/fail`, { method: "POST" });
    return { status: answer.status, body: (await answer.json()) as ProblemBody, logged };
  } finally {
    server.close();
  }
}

beforeAll(() => {
  expect(createBatchPayout?.body).toBeDefined();
  expect(getPayCalldata?.body).toBeUndefined();
});

describe("the error boundary", () => {
  it("answers a chain input error as a 400 naming the field under the body, logging nothing", async () => {
    const error = new ChainInputError(
      "payments[1].payee",
      "invalid_address",
      "payments[1].payee must be 0x and 40 hex digits.",
    );
    const { status, body, logged } = await send(error);
    expect(status).toBe(400);
    expect(body.type).toBe("/problems/validation-failed");
    expect(body.errors).toEqual([
      { path: "/body/payments/1/payee", message: "payments[1].payee must be 0x and 40 hex digits." },
    ]);
    expect(logged).toEqual([]);
  });

  it("names the query for an operation without a body", async () => {
    const error = new ChainInputError("amount", "out_of_range", "amount 1e80 is too large to pay on chain.");
    const { status, body } = await send(error, getPayCalldata);
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      { path: "/query/amount", message: "amount 1e80 is too large to pay on chain." },
    ]);
  });

  it("answers any other error as a logged 500 that says nothing of the cause", async () => {
    const { status, body, logged } = await send(new Error("secret detail"));
    expect(status).toBe(500);
    expect(body.detail).toBe(
      "An unexpected error occurred; retry later and quote the request id if it persists.",
    );
    expect(JSON.stringify(body)).not.toContain("secret detail");
    expect(logged).toEqual(["request req-1 (POST /v2/payouts/batch) failed: secret detail"]);
  });
});
