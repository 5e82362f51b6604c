import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../../src/server/index.ts";
import { asOtherAccount, configWithOtherAccount } from "../../fixtures.ts";
import {
  browserOrigin,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  const config = configWithOtherAccount([
    {
      id: "cid_other",
      clientId: "pk_other_0000000001",
      label: "Other",
      allowedDomains: ["https://other.example"],
    },
  ]);
  server = await startTestServer({ config });
});
afterAll(() => server.close());

describe("getClientId (GET /v2/client-ids/{id})", () => {
  it("answers the caller's own client ID, with `self` read as the server's origin", async () => {
    const answer = await server.call("GET", `/v2/client-ids/${sampleCredentials.clientIdRecordId}`);
    expect(answer.status).toBe(200);
    expect(schemaErrors("ClientId", answer.body)).toBe("");
    expect(answer.body).toMatchObject({
      id: sampleCredentials.clientIdRecordId,
      clientId: sampleCredentials.clientId,
      allowedDomains: [browserOrigin, server.url],
      feePercentage: null,
      feeAddress: null,
      status: "active",
      createdAt: "2026-04-12T10:00:00.000Z",
    });
    expect("accountId" in answer.body).toBe(false);
  });

  it("answers 404 for another account's client ID and for an unknown one", async () => {
    problemErrors(await server.call("GET", "/v2/client-ids/cid_other"), "/problems/not-found", 404);
    problemErrors(await server.call("GET", "/v2/client-ids/cid_nope"), "/problems/not-found", 404);
    expect((await server.call("GET", "/v2/client-ids/cid_other", asOtherAccount)).body.clientId).toBe(
      "pk_other_0000000001",
    );
  });
});
