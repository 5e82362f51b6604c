import { runner } from "node-pg-migrate";
import pg from "pg";
import { beforeAll, expect, it } from "vitest";
import { createPostgresStore } from "../../../src/server/index.ts";
import { findMigrationsDirectory } from "../../../src/server/store/postgres/migrate.ts";
import { describeWithPostgres, sharedPostgres, type TestPostgres } from "../../support/postgres.ts";
import { endpoint, sampleRecords } from "./fixtures.ts";

let server: TestPostgres | undefined;
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describeWithPostgres("the PostgreSQL migrations", () => {
  beforeAll(async () => {
    server = await sharedPostgres();
  });

  it("mark the secure payments stored before payout links existed as links the account is paid through", async () => {
    if (!server) throw new Error("PostgreSQL did not start");
    const url = await server.createDatabase();
    // The schema as it stood before the payee destinations and payout links (the first three migrations).
    await runner({
      databaseUrl: url,
      dir: findMigrationsDirectory(),
      direction: "up",
      count: 3,
      migrationsTable: "pgmigrations",
      logger: quiet,
    });
    const { kind: _kind, ...stored } = { ...sampleRecords.securePayments, token: "tok_before" };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("INSERT INTO secure_payments (token, record) VALUES ($1, $2::jsonb)", [
        stored.token,
        JSON.stringify(stored),
      ]);
    } finally {
      await client.end();
    }

    const store = await createPostgresStore({ connectionString: url });
    try {
      expect(await store.securePayments.get("tok_before")).toEqual({ ...stored, kind: "incoming" });
      expect(
        await store.payeeDestinations.first("activeWallet", {
          accountId: "acct",
          walletAddress: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF",
        }),
      ).toBe(undefined);
    } finally {
      await store.close();
    }
  });

  it("give endpoints of every event the scoped duplicates", async () => {
    if (!server) throw new Error("PostgreSQL did not start");
    const url = await server.createDatabase();
    // The schema as it stood before the scoped duplicates (the first ten migrations).
    await runner({
      databaseUrl: url,
      dir: findMigrationsDirectory(),
      direction: "up",
      count: 10,
      migrationsTable: "pgmigrations",
      logger: quiet,
    });
    const earlierEvents = [
      "payment.confirmed",
      "payment.partial",
      "payment.failed",
      "payment.processing",
      "payment.refunded",
      "request.recurring",
      "compliance.updated",
      "payment_detail.updated",
      "secure_payment.user_event",
      "client_id.linked",
      "kyt.screening.completed",
    ] as const;
    const everyEvent = { ...endpoint("we_every"), events: [...earlierEvents] };
    const confirmedOnly = endpoint("we_confirmed");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const record of [everyEvent, confirmedOnly]) {
        await client.query(
          "INSERT INTO webhook_endpoints (id, account_id, scope, record) VALUES ($1, $2, $3, $4::jsonb)",
          [record.id, record.accountId, record.scope, JSON.stringify(record)],
        );
      }
    } finally {
      await client.end();
    }

    const store = await createPostgresStore({ connectionString: url });
    try {
      // An endpoint of every event keeps receiving every event; one of a chosen few is left alone.
      expect((await store.webhookEndpoints.get("we_every"))?.events).toEqual([
        ...earlierEvents,
        "payment.confirmed.client_id",
        "payment.partial.client_id",
        "payment.confirmed.checkout",
        "payment.partial.checkout",
        "secure_payment.access_rejected",
      ]);
      expect(await store.webhookEndpoints.get("we_confirmed")).toEqual(confirmedOnly);
    } finally {
      await store.close();
    }
  });
});
