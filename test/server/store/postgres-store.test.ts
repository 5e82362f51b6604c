import { beforeAll } from "vitest";
import type { Store } from "../../../src/server/index.ts";
import { createPostgresStore } from "../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres, type TestPostgres } from "../../support/postgres.ts";
import { describeStoreConformance } from "./store-conformance.ts";

let server: TestPostgres | undefined;

describeWithPostgres("the PostgreSQL store", () => {
  beforeAll(async () => {
    server = await sharedPostgres();
  });

  // Each test gets a fresh database, already migrated: the store's opening finds nothing to apply.
  // The migrations themselves are tested from empty databases (postgres-migrations.test.ts).
  describeStoreConformance("the PostgreSQL store", async (): Promise<Store> => {
    if (!server) throw new Error("PostgreSQL did not start");
    return createPostgresStore({ connectionString: await server.createMigratedDatabase() });
  });
});
