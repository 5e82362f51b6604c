import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planContractChecks, runContractSuite, summariseResults } from "../../src/contract/run-suite.ts";
import type { CheckResult } from "../../src/contract/target.ts";
import { v2ScenarioChecks } from "../../src/contract/v2-scenarios.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { findFreePort } from "../support/prism.ts";
import { type SharedPrism, sharedPrism } from "../support/shared-prism.ts";
import { type BrokenServer, startBrokenServer } from "./broken-server.ts";
import { type ConformingProxy, startConformingProxy } from "./conforming-proxy.ts";

// The suite must pass a conforming server with its stateful checks on, and fail a broken one.

function find(results: CheckResult[], operationId: string, check: string): CheckResult {
  const found = results.find((result) => result.operationId === operationId && result.check === check);
  if (!found) throw new Error(`no result for ${operationId} › ${check}`);
  return found;
}

describe("against a conforming stateful server (Prism behind a proxy that adds state)", () => {
  let prism: SharedPrism | undefined;
  let proxy: ConformingProxy | undefined;
  let results: CheckResult[] = [];

  beforeAll(async () => {
    prism = await sharedPrism();
    proxy = await startConformingProxy(prism.baseUrl, loadBundledSpec());
    const target = {
      baseUrl: proxy.baseUrl,
      apiKey: proxy.apiKey,
      extra: { clientId: proxy.clientId, origin: proxy.allowedOrigin },
      orchestratorKey: proxy.orchestratorKey,
    };
    // Prism behind the proxy refuses body members the spec does not describe.
    results = await runContractSuite(target, { stateful: true, strictBodies: true });
  });
  afterAll(async () => {
    await proxy?.stop();
  });

  // The proxy keeps no payers, bank accounts or client IDs, so the v2 scenarios, which read back what
  // they create under fresh ids, fail against it; the reference server passes them
  // (against-reference-server.test.ts).
  const isV2Scenario = (result: CheckResult) =>
    v2ScenarioChecks.some(
      (entry) => entry.operationId === result.operationId && entry.check === result.check,
    );

  // Nor does it keep wallet challenges or check signatures: the wallet sign-in scenario fails
  // against it, and the reference server passes it.
  const isWalletSignIn = (result: CheckResult) =>
    result.operationId === "verifyWalletChallenge" &&
    result.check.startsWith("challenge signed by a new wallet");

  it("passes every check, the stateful ones included, but the v2 scenarios and the wallet sign-in", () => {
    const exempt = (result: CheckResult) => isV2Scenario(result) || isWalletSignIn(result);
    const failed = results.filter((result) => result.outcome !== "pass" && !exempt(result));
    expect(failed).toEqual([]);
    expect(results.filter(isWalletSignIn).map((result) => result.outcome)).toEqual(["fail"]);
    expect(summariseResults(results.filter((result) => !exempt(result)))).toMatchObject({
      failed: 0,
      needsStatefulServer: 0,
    });
    expect(results.length).toBeGreaterThan(400);
  });

  it("fails the v2 scenarios that read back a record under a fresh id, naming the step", () => {
    const failed = results.filter((result) => isV2Scenario(result) && result.outcome === "fail");
    expect(failed.map((result) => result.operationId)).toEqual([
      // The legacy v1 twins read back what their scenario created, by payment reference or user id.
      "registerPayerV1",
      "getPayerComplianceStatusV1",
      "createPayoutV1",
      "getRequestStatusV1",
      "stopRequestRecurrenceV1",
      "getPayerComplianceStatus",
      "updatePayerComplianceStatus",
      "createPaymentDetailsV2",
      "listPaymentDetails",
      "createClientId",
      "listClientIds",
      "updateClientId",
      "deleteClientId",
      // Prism answers its examples: the link it finds and the batch it joins are not the ones created.
      "createPayoutSecurePayment",
      "createBatchPayoutSecurePayment",
      "createMulticallPayout",
      // Prism keeps no intent: the token check of the reported link still answers 200.
      "recordSecurePaymentIntent",
      // Prism builds no route: it answers 200 to any step.
      "refreshSecurePaymentStepTransaction",
      // The multicall link Prism answers is its example, whose token the proxy does not know.
      "recordMulticallPayoutIntent",
      // Prism relays any Tron transaction: it answers its 200 example.
      "broadcastSecurePaymentTronTransaction",
      // Prism checks no signature: it registers a destination whatever signed it.
      "createPayeeDestination",
      "deactivatePayeeDestination",
    ]);
    expect(
      find(results, "getPayerComplianceStatus", "status of a payer just registered -> 200 with its userId")
        .reason,
    ).toMatch(/^getPayerComplianceStatus: answered 404, expected 200; body: /);
    expect(
      find(
        results,
        "createPayoutSecurePayment",
        "payout link just created -> its request finds the same token",
      ).reason,
    ).toMatch(/^token "01KM9S346Q3D25VT4F5V37E3S3", created "01KMB2Q7XW4F9C3N8R6T1V5H0J"/);
    expect(
      find(
        results,
        "recordSecurePaymentIntent",
        "payment of a link just created reported twice -> one intent; the link's token check then 423",
      ).reason,
    ).toMatch(/^checkSecurePaymentToken: answered 200, expected 423; /);
    expect(
      find(
        results,
        "deleteClientId",
        "client ID just deleted -> 401 from its allowed origin at once, read back revoked",
      ).reason,
    ).toMatch(/^listCurrencies: answered 401, expected 200; /);
  });

  it("runs the stateful checks for real", () => {
    expect(find(results, "createSecurePayment", "wrong API key -> 401").reason).toBe(
      "401 application/problem+json",
    );
    expect(find(results, "createSecurePayment", "client ID from a disallowed origin -> 403").reason).toBe(
      "403 application/problem+json",
    );
    expect(
      find(results, "createSecurePayment", "body: over 1 MiB (valid JSON padded with spaces) -> 413").reason,
    ).toBe("413 application/problem+json");
    expect(find(results, "createSecurePayment", "body: malformed JSON -> 400").reason).toBe(
      "400 application/problem+json",
    );
    expect(find(results, "checkSecurePaymentToken", "path token: unknown id -> 404").reason).toMatch(
      /^404 application\/problem\+json for [0-9A-HJKMNP-TV-Z]{26}$/,
    );
    expect(
      find(
        results,
        "checkSecurePaymentToken",
        "token of a secure payment just created -> 200 with its requestIds",
      ),
    ).toEqual({
      operationId: "checkSecurePaymentToken",
      check: "token of a secure payment just created -> 200 with its requestIds",
      outcome: "pass",
      reason: "created token 01KM9S346Q3D25VT4F5V37E3S3, then 200 with the same requestIds",
    });
  });
});

describe("against a server that breaks the contract", () => {
  let server: BrokenServer | undefined;
  beforeAll(async () => {
    server = await startBrokenServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const target = () => ({ baseUrl: server?.baseUrl ?? "", apiKey: "test-api-key-0001" });

  it("fails every check it sends, naming what is wrong", async () => {
    const results = await runContractSuite(target(), { stateful: true });
    const summary = summariseResults(results);
    expect(summary.passed).toBe(0);
    // Only the checks that need a client ID, which none was given, are not sent: the disallowed
    // origin of every operation that takes one, and all but the credential checks of the operations
    // that take nothing else.
    // (The Auth API's operations take a session or none, which the suite opens or needs not.)
    const operations = readPathOperations(loadBundledSpec());
    const clientIdOnly = operations
      .filter(
        (operation) =>
          !operation.acceptsApiKey &&
          !operation.acceptsOrchestratorKey &&
          !operation.acceptsSession &&
          !operation.acceptsAnonymous,
      )
      .map((operation) => operation.operationId);
    // The orchestrator operations take only an orchestrator key, which none was given either.
    const orchestratorOnly = operations
      .filter((operation) => operation.acceptsOrchestratorKey)
      .map((operation) => operation.operationId);
    expect(clientIdOnly.toSorted()).toEqual([
      "createPayeeDestination",
      "deactivatePayeeDestination",
      "getActivePayeeDestination",
      "getPayeeDestination",
      "getPayeeDestinationSigningData",
      "getTransactionHistory",
      "recordSecurePaymentUserEvent",
    ]);
    expect(results.filter((result) => result.outcome === "needs-stateful-server")).toEqual([]);
    const notSent = results.filter((result) => result.outcome === "needs-credential");
    const notSentForOrchestrators = notSent.filter((result) => orchestratorOnly.includes(result.operationId));
    for (const result of notSentForOrchestrators) expect(result.reason).toMatch(/^needs an orchestrator key/);
    const notSentElsewhere = notSent.filter(
      (result) =>
        !clientIdOnly.includes(result.operationId) && !orchestratorOnly.includes(result.operationId),
    );
    expect(notSentElsewhere.map((result) => result.check)).toEqual(
      Array(notSentElsewhere.length).fill("client ID from a disallowed origin -> 403"),
    );
    expect(notSentElsewhere.length).toBeGreaterThan(0);
    for (const result of notSent.filter((entry) => !orchestratorOnly.includes(entry.operationId))) {
      expect(result.reason).toMatch(/^needs a client ID/);
    }
    const sentClientIdOnly = results.filter(
      (result) => clientIdOnly.includes(result.operationId) && result.outcome !== "needs-credential",
    );
    expect(new Set(sentClientIdOnly.map((result) => result.check))).toEqual(
      new Set([
        "no credentials -> 401",
        "wrong API key -> 401",
        "API key instead of a client ID -> 401",
        "unknown client ID -> 401",
        "client ID without Origin -> 401",
      ]),
    );
    expect(sentClientIdOnly).toHaveLength(5 * clientIdOnly.length);
    expect(find(results, "listCurrencies", "valid call (API key)").reason).toMatch(
      /^header x-request-id is missing; body does not match the 200 application\/json schema: \(root\) must be array; /,
    );
    expect(find(results, "listCurrencies", "no credentials -> 401").reason).toBe(
      'answered 200, expected 401; body: {"ok":true}',
    );
    expect(find(results, "listCurrencies", "query symbol: breaks minLength -> 400").reason).toBe(
      'answered 200, expected 400; body: {"ok":true}',
    );
    expect(find(results, "createSecurePayment", "body: malformed JSON -> 400")).toMatchObject({
      outcome: "fail",
      reason: "answered 500, expected 400; body: boom",
    });
  });

  it("never excuses a 5xx, even on a stateless target where Prism's shortfalls are excused", async () => {
    const results = await runContractSuite(target(), { stateful: false });
    expect(find(results, "createSecurePayment", "body: malformed JSON -> 400")).toMatchObject({
      outcome: "fail",
    });
    // A 200 to an empty query value is what Prism does too: reported, not failed, on a stateless target.
    expect(find(results, "listCurrencies", "query symbol: breaks minLength -> 400")).toMatchObject({
      outcome: "needs-stateful-server",
      reason:
        'Prism 5.14.2 treats an empty query value as absent and does not validate it. Answered: answered 200, expected 400; body: {"ok":true}',
    });
  });

  it("reports a server that does not answer as failing", async () => {
    const port = await findFreePort();
    const [first] = planContractChecks(
      { baseUrl: `http://127.0.0.1:${port}`, apiKey: "test-api-key-0001" },
      { stateful: true },
    );
    const result = await first?.run();
    expect(result?.outcome).toBe("fail");
    expect(result?.reason).toBe("no answer from GET /v1/currencies: connection refused (ECONNREFUSED)");
  });

  it("never prints the API key, even when the server echoes it", async () => {
    // The broken server's body happens to be this "key", as if it echoed the credential back.
    const checks = planContractChecks(
      { baseUrl: server?.baseUrl ?? "", apiKey: '{"ok":true}' },
      { stateful: true },
    );
    const check = checks.find(
      (entry) => entry.operationId === "listCurrencies" && entry.check === "no credentials -> 401",
    );
    expect((await check?.run())?.reason).toBe("answered 200, expected 401; body: [api key]");
  });
});
