import { afterAll, expect, it } from "vitest";
import { createDefaultConfig, createPostgresStore, type Store } from "../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres } from "../../support/postgres.ts";
import {
  type Answer,
  createSecurePayment,
  problemErrors,
  startTestServer,
  type TestServer,
} from "../helpers.ts";

const stores: Store[] = [];
const servers: TestServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(stores.map((store) => store.close()));
});

/** Whether an answer is the documented 503 of a store that gave up: a Problem of either type, with Retry-After. */
function isRetryLater(answer: Answer): boolean {
  if (answer.status !== 503) return false;
  const type = (answer.body as { type: string }).type;
  expect(["/problems/concurrent-changes", "/problems/service-unavailable"]).toContain(type);
  problemErrors(answer, type, 503);
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  return true;
}

describeWithPostgres("contention across two instances on one PostgreSQL database", () => {
  it("answers 300 concurrent partial payments of one request 201, or 503 with Retry-After, and records each 201 once", async () => {
    const url = await (await sharedPostgres()).createMigratedDatabase();
    for (let n = 0; n < 2; n++) {
      const store = await createPostgresStore({ connectionString: url });
      stores.push(store);
      servers.push(await startTestServer({ config: createDefaultConfig(), store }));
    }
    const [first, second] = servers as [TestServer, TestServer];
    const { requestIds } = await createSecurePayment(first);
    const route = `/sandbox/requests/${requestIds[0]}/payments`;

    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        (index % 2 === 0 ? first : second).call("POST", route, {
          body: { outcome: "partial", amount: "0.01" },
        }),
      ),
    );

    const paid = answers.filter((answer) => answer.status === 201);
    const later = answers.filter(isRetryLater);
    expect(
      answers.map((answer) => answer.status).filter((status) => status !== 201 && status !== 503),
    ).toEqual([]);
    expect(paid.length + later.length).toBe(300);
    expect(paid.length).toBeGreaterThan(0);
    const request = (await first.call("GET", `/sandbox/requests/${requestIds[0]}`)).body;
    expect(request.payments).toHaveLength(paid.length);
    expect(Number(request.amountPaid)).toBeCloseTo(paid.length * 0.01, 6);
    expect(new Set(request.payments.map((payment: { txHash: string }) => payment.txHash)).size).toBe(
      paid.length,
    );
    expect([...first.loggedErrors, ...second.loggedErrors]).toEqual([]);
  });
});
