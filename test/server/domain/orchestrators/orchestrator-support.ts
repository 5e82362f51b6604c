import { sampleCredentials } from "../../../../src/server/index.ts";
import type { CallOptions, TestServer } from "../../helpers.ts";

/** Call options that present an orchestrator key (and no API key). */
export const asOrchestrator = (key: string = sampleCredentials.orchestratorKey): CallOptions => ({
  auth: "none",
  headers: { "x-orchestrator-key": key },
});

/** Creates an orchestrator with the sandbox API key (or `options`); answers its id and key. */
export async function createOrchestrator(
  server: TestServer,
  name = "Northwind Checkout",
  options: CallOptions = {},
): Promise<{ id: string; key: string }> {
  const answer = await server.call("POST", "/v2/orchestrators", {
    body: { orchestratorName: name },
    ...options,
  });
  if (answer.status !== 201) throw new Error(`orchestrator creation failed: ${answer.text}`);
  return { id: answer.body.orchestrator.id, key: answer.body.rawKey };
}

/** Creates a client ID of the sandbox account; answers its record id and public value. */
export async function createClientId(
  server: TestServer,
  label = "Storefront",
): Promise<{ id: string; clientId: string }> {
  const answer = await server.call("POST", "/v2/client-ids", {
    body: { label, allowedDomains: ["https://shop.example.com"] },
  });
  if (answer.status !== 201) throw new Error(`client ID creation failed: ${answer.text}`);
  return { id: answer.body.id, clientId: answer.body.clientId };
}
