import { afterAll, beforeAll, beforeEach } from "vitest";
import { startTestServer, type TestServer } from "../../helpers.ts";
import { deploySepoliaContracts, type SepoliaDeployment } from "./sepolia-deployment.ts";
import { mirrorPayerBalances } from "./wallet-book.ts";

/**
 * A test server on its default configuration for the whole file, and a fresh Sepolia EVM before
 * each test (the contracts and FAU at the addresses of the server's tables, so that what it
 * answers is sent unchanged). With `mirrorBalances`, the payer's balances are copied into the
 * sandbox wallet book too.
 */
export function useSepoliaServer(options: { mirrorBalances?: boolean } = {}): {
  readonly server: TestServer;
  readonly deployment: SepoliaDeployment;
} {
  let server: TestServer | undefined;
  let deployment: SepoliaDeployment | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    deployment = await deploySepoliaContracts();
    if (options.mirrorBalances && server) await mirrorPayerBalances(server, deployment);
  });
  return {
    get server() {
      if (!server) throw new Error("the test server is not started yet");
      return server;
    },
    get deployment() {
      if (!deployment) throw new Error("the EVM is deployed before each test");
      return deployment;
    },
  };
}
