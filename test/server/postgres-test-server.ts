import { createPostgresStore } from "../../src/server/index.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

/** A test server on a database of its own in the shared PostgreSQL; closing it closes its store. */
export async function startTestServerOnPostgres(): Promise<TestServer> {
  const store = await createPostgresStore({
    connectionString: await (await sharedPostgres()).createMigratedDatabase(),
  });
  const server = await startTestServer({ store });
  return {
    ...server,
    async close() {
      await server.close();
      await store.close();
    },
  };
}
