import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { SpecOperation } from "../spec/operations.ts";
import type { JsonObject } from "../spec/spec-document.ts";
import { defineCheck, type SuiteContext } from "./check-kit.ts";
import { payThenDeactivate, registerThenRead } from "./payee-destination-steps.ts";
import { ScenarioRun, scenarioNotRunReason } from "./scenario-run.ts";
import type { PlannedCheck } from "./target.ts";

const prismKeepsNothing = "Prism is stateless: it keeps nothing a call creates for the next call to read";
const prismAnswersExamples = "Prism answers examples, not the currency table both paths read";

interface Scenario {
  operationId: string;
  check: string;
  /** Every operation the scenario calls; it is planned only when the spec has them all. */
  uses: string[];
  statelessReason: string;
  steps(run: ScenarioRun): Promise<void>;
}

/** An identifier no earlier run used, so that scenarios can run again on the same deployment. */
const uniqueId = (kind: string) => `contract-suite-${kind}-${randomUUID()}`;
const text = (value: unknown) => JSON.stringify(value);

async function registerPayer(run: ScenarioRun): Promise<{ clientUserId: string; userId: unknown }> {
  const clientUserId = uniqueId("payer");
  const registered = await run.send(
    "registerPayer",
    { body: { ...run.example("registerPayer"), clientUserId } },
    [200],
  );
  return { clientUserId, userId: registered?.userId };
}

async function createClientId(run: ScenarioRun): Promise<JsonObject> {
  const created = await run.send("createClientId", { body: run.example("createClientId") }, [201]);
  if (typeof created?.id !== "string") throw run.fail("createClientId: the 201 body has no id");
  return created;
}

/** Stores a bank account for a new payer through `createdBy`, then lists it (by its id, or all). */
async function storeThenList(
  run: ScenarioRun,
  createdBy: "createPaymentDetails" | "createPaymentDetailsV2",
  byId: boolean,
): Promise<void> {
  const { clientUserId } = await registerPayer(run);
  const created = await run.send(createdBy, { path: { clientUserId } }, [201]);
  const id = (created?.payment_detail as JsonObject | undefined)?.id;
  const query = byId ? { paymentDetailsId: String(id) } : {};
  const listed = await run.send("listPaymentDetails", { path: { clientUserId }, query }, [200]);
  const ids = (listed?.paymentDetails as JsonObject[] | undefined)?.map((detail) => detail.id);
  run.expect(isDeepStrictEqual(ids, [id]), `listed ids ${text(ids)}, created ${text(id)}`);
}

/** Creates a client ID, uses it, then revokes it so that no scenario leaves an active one behind. */
async function withNewClientId(
  run: ScenarioRun,
  use: (created: JsonObject, path: { id: string }) => Promise<void>,
): Promise<void> {
  const created = await createClientId(run);
  const path = { id: String(created.id) };
  await use(created, path);
  await run.send("deleteClientId", { path }, [200]);
}

async function createSecurePayment(run: ScenarioRun): Promise<{ token: string; requestIds: unknown[] }> {
  const created = await run.send("createSecurePayment", {}, [201]);
  if (typeof created?.token !== "string" || !Array.isArray(created.requestIds)) {
    throw run.fail("createSecurePayment: the 201 body has no token or requestIds");
  }
  return { token: created.token, requestIds: created.requestIds };
}

/** The v2 path answers the v1 path's body for the same call. */
async function sameAnswer(run: ScenarioRun, v1: string, v2: string): Promise<void> {
  const old = await run.send(v1, {}, [200]);
  const fresh = await run.send(v2, {}, [200]);
  run.expect(isDeepStrictEqual(old, fresh), `${v2} answers ${text(fresh)}, ${v1} ${text(old)}`);
}

const scenarios: Scenario[] = [
  {
    operationId: "registerPayerV1",
    check: "payer registered on the v1 path -> read on the v2 path with the same userId",
    uses: ["registerPayerV1", "getPayerComplianceStatus"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const clientUserId = uniqueId("payer");
      const body = { ...run.example("registerPayerV1"), clientUserId };
      const registered = await run.send("registerPayerV1", { body }, [200]);
      const status = await run.send("getPayerComplianceStatus", { path: { clientUserId } }, [200]);
      run.expect(
        status?.userId === registered?.userId,
        `userId ${text(status?.userId)}, v1 answered ${text(registered?.userId)}`,
      );
    },
  },
  {
    operationId: "getPayerComplianceStatusV1",
    check: "payer registered on the v2 path -> the v1 read answers the v2 read's body",
    uses: ["registerPayer", "getPayerComplianceStatusV1", "getPayerComplianceStatus"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { clientUserId } = await registerPayer(run);
      const v1 = await run.send("getPayerComplianceStatusV1", { path: { clientUserId } }, [200]);
      const v2 = await run.send("getPayerComplianceStatus", { path: { clientUserId } }, [200]);
      run.expect(isDeepStrictEqual(v1, v2), `v1 answers ${text(v1)}, v2 ${text(v2)}`);
    },
  },
  {
    operationId: "createPayoutV1",
    check: "v1 payout -> its request read on the v1 path by its paymentReference",
    uses: ["createPayoutV1", "getRequestStatusV1"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const created = await run.send("createPayoutV1", {}, [201]);
      const paymentReference = String(created?.paymentReference);
      const read = await run.send("getRequestStatusV1", { path: { paymentReference } }, [200]);
      const requestId = created?.requestId ?? created?.requestID;
      run.expect(
        read?.requestId === requestId,
        `read requestId ${text(read?.requestId)}, created ${text(requestId)}`,
      );
    },
  },
  {
    operationId: "createRequestV1",
    check: "request created on the v1 path -> read on the v2 path by its requestID, and listed for its payee",
    uses: ["createRequestV1", "getRequestStatus", "listRequests"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const body = run.example("createRequestV1");
      const created = await run.send("createRequestV1", { body }, [201]);
      const requestId = String(created?.requestID);
      const read = await run.send("getRequestStatus", { path: { requestId } }, [200]);
      run.expect(
        read?.paymentReference === created?.paymentReference,
        `v2 read answers paymentReference ${text(read?.paymentReference)}, v1 created ${text(created?.paymentReference)}`,
      );
      const listed = await run.send(
        "listRequests",
        { query: { walletAddress: String(body.payee), limit: "100" } },
        [200],
      );
      const ids = (listed?.requests as JsonObject[] | undefined)?.map((item) => item.requestId);
      run.expect(ids?.includes(requestId) === true, `the list for ${text(body.payee)} lacks ${requestId}`);
    },
  },
  {
    operationId: "getRequestStatusV1",
    check: "request created on the v2 path -> read on the v1 path by its paymentReference, unpaid",
    uses: ["createRequest", "getRequestStatusV1"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const created = await run.send("createRequest", {}, [201]);
      const paymentReference = String(created?.paymentReference);
      const read = await run.send("getRequestStatusV1", { path: { paymentReference } }, [200]);
      run.expect(
        read?.requestId === created?.requestId && read?.hasBeenPaid === false,
        `v1 read answers ${text(read)}, v2 created ${text(created)}`,
      );
    },
  },
  {
    operationId: "stopRequestRecurrenceV1",
    check:
      "recurring request created on the v1 path -> stopped by its paymentReference, read stopped on the v2 path",
    uses: ["createRequestV1", "stopRequestRecurrenceV1", "getRequestStatus"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const created = await run.send(
        "createRequestV1",
        { body: run.example("createRequestV1", "recurringInvoice") },
        [201],
      );
      const paymentReference = String(created?.paymentReference);
      await run.send("stopRequestRecurrenceV1", { path: { paymentReference } }, [200]);
      const read = await run.send(
        "getRequestStatus",
        { path: { requestId: String(created?.requestID) } },
        [200],
      );
      run.expect(
        read?.isRecurrenceStopped === true,
        `isRecurrenceStopped ${text(read?.isRecurrenceStopped)}`,
      );
    },
  },
  {
    operationId: "getPayerComplianceStatus",
    check: "status of a payer just registered -> 200 with its userId",
    uses: ["registerPayer", "getPayerComplianceStatus"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { clientUserId, userId } = await registerPayer(run);
      const status = await run.send("getPayerComplianceStatus", { path: { clientUserId } }, [200]);
      run.expect(
        status?.userId === userId,
        `userId ${text(status?.userId)}, registration answered ${text(userId)}`,
      );
    },
  },
  {
    operationId: "updatePayerComplianceStatus",
    check: "agreement completed for a payer just registered -> its status reads completed",
    uses: ["registerPayer", "updatePayerComplianceStatus", "getPayerComplianceStatus"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { clientUserId } = await registerPayer(run);
      await run.send(
        "updatePayerComplianceStatus",
        { path: { clientUserId }, body: { agreementCompleted: true } },
        [200],
      );
      const status = await run.send("getPayerComplianceStatus", { path: { clientUserId } }, [200]);
      run.expect(status?.agreementStatus === "completed", `agreementStatus ${text(status?.agreementStatus)}`);
    },
  },
  {
    operationId: "createPaymentDetailsV2",
    check: "bank account of a payer just registered -> 201, then listed by its id",
    uses: ["registerPayer", "createPaymentDetailsV2", "listPaymentDetails"],
    statelessReason: prismKeepsNothing,
    steps: (run) => storeThenList(run, "createPaymentDetailsV2", true),
  },
  {
    operationId: "listPaymentDetails",
    check: "bank account stored on the v1 path -> listed on the v2 path",
    uses: ["registerPayer", "createPaymentDetails", "listPaymentDetails"],
    statelessReason: prismKeepsNothing,
    steps: (run) => storeThenList(run, "createPaymentDetails", false),
  },
  {
    operationId: "createClientId",
    check: "client ID just created -> read back active by its id (then revoked)",
    uses: ["createClientId", "getClientId", "deleteClientId"],
    statelessReason: prismKeepsNothing,
    steps: (run) =>
      withNewClientId(run, async (created, path) => {
        const read = await run.send("getClientId", { path }, [200]);
        run.expect(
          read?.clientId === created.clientId && read?.status === "active",
          `read back ${text(read)}`,
        );
      }),
  },
  {
    operationId: "listClientIds",
    check: "client ID just created -> in the list (then revoked)",
    uses: ["createClientId", "listClientIds", "deleteClientId"],
    statelessReason: prismKeepsNothing,
    steps: (run) =>
      withNewClientId(run, async (created) => {
        const listed = await run.send("listClientIds", {}, [200]);
        const ids = (listed?.items as JsonObject[] | undefined)?.map((record) => record.id);
        run.expect(ids?.includes(created.id) === true, `the list lacks ${text(created.id)}`);
      }),
  },
  {
    operationId: "updateClientId",
    check: "client ID just created -> relabelled -> read back with the new label (then revoked)",
    uses: ["createClientId", "updateClientId", "getClientId", "deleteClientId"],
    statelessReason: prismKeepsNothing,
    steps: (run) =>
      withNewClientId(run, async (_created, path) => {
        const label = uniqueId("label").slice(0, 100);
        await run.send("updateClientId", { path, body: { label } }, [200]);
        const read = await run.send("getClientId", { path }, [200]);
        run.expect(read?.label === label, `label ${text(read?.label)}, expected ${text(label)}`);
      }),
  },
  {
    operationId: "deleteClientId",
    check: "client ID just deleted -> 401 from its allowed origin at once, read back revoked",
    uses: ["createClientId", "listCurrencies", "deleteClientId", "getClientId"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const created = await createClientId(run);
      const origin = String((created.allowedDomains as unknown[] | undefined)?.[0]);
      const headers = { "x-client-id": String(created.clientId), origin };
      await run.send("listCurrencies", { headers }, [200]);
      const path = { id: String(created.id) };
      await run.send("deleteClientId", { path }, [200]);
      await run.send("listCurrencies", { headers }, [401]);
      const read = await run.send("getClientId", { path }, [200]);
      run.expect(read?.status === "revoked", `status ${text(read?.status)} after deletion`);
    },
  },
  {
    operationId: "findSecurePayment",
    check: "request of a secure payment just created -> 200 with the same token",
    uses: ["createSecurePayment", "findSecurePayment"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token, requestIds } = await createSecurePayment(run);
      const found = await run.send(
        "findSecurePayment",
        { query: { requestId: String(requestIds[0]) } },
        [200],
      );
      run.expect(found?.token === token, `token ${text(found?.token)}, created ${token}`);
      run.expect(isDeepStrictEqual(found?.requestIds, requestIds), `requestIds ${text(found?.requestIds)}`);
    },
  },
  {
    operationId: "createPayoutSecurePayment",
    check: "payout link just created -> its request finds the same token",
    uses: ["createPayoutSecurePayment", "findSecurePayment"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const created = await run.send("createPayoutSecurePayment", {}, [201]);
      const requestIds = created?.requestIds;
      if (!Array.isArray(requestIds) || requestIds.length !== 1) {
        throw run.fail(
          `createPayoutSecurePayment: requestIds ${text(requestIds)}, a payout link holds one request`,
        );
      }
      const found = await run.send(
        "findSecurePayment",
        { query: { requestId: String(requestIds[0]) } },
        [200],
      );
      run.expect(
        found?.token === created?.token,
        `token ${text(found?.token)}, created ${text(created?.token)}`,
      );
    },
  },
  {
    operationId: "createBatchPayoutSecurePayment",
    check: "two payout links just created -> joined into one link over both requests, in order",
    uses: ["createPayoutSecurePayment", "createBatchPayoutSecurePayment"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const links = [
        await run.send("createPayoutSecurePayment", {}, [201]),
        await run.send("createPayoutSecurePayment", {}, [201]),
      ];
      const joined = await run.send(
        "createBatchPayoutSecurePayment",
        { body: { tokens: links.map((link) => link?.token) } },
        [201],
      );
      const expected = links.flatMap((link) => (Array.isArray(link?.requestIds) ? link.requestIds : []));
      run.expect(
        isDeepStrictEqual(joined?.requestIds, expected),
        `requestIds ${text(joined?.requestIds)}, the links held ${text(expected)}`,
      );
    },
  },
  {
    operationId: "createMulticallPayout",
    check: "two payout links just created -> one multicall link over both, read back payable in order",
    uses: ["createPayoutSecurePayment", "createMulticallPayout", "getMulticallPayout"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const links = [
        await run.send("createPayoutSecurePayment", {}, [201]),
        await run.send("createPayoutSecurePayment", {}, [201]),
      ];
      const childTokens = links.map((link) => link?.token);
      const created = await run.send("createMulticallPayout", { body: { childTokens } }, [201]);
      const read = await run.send("getMulticallPayout", { path: { token: String(created?.token) } }, [200]);
      const children = Array.isArray(read?.children) ? (read.children as JsonObject[]) : [];
      run.expect(
        isDeepStrictEqual(
          children.map((child) => [child.securePaymentToken, child.executable]),
          childTokens.map((token) => [token, true]),
        ),
        `children ${text(children.map((child) => [child.securePaymentToken, child.executable]))}, created from ${text(childTokens)}`,
      );
    },
  },
  {
    operationId: "getSecurePaymentCalldata",
    check: "token of a secure payment just created -> 200 with its calldata",
    uses: ["createSecurePayment", "getSecurePaymentCalldata"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token } = await createSecurePayment(run);
      await run.send("getSecurePaymentCalldata", { path: { token }, query: {} }, [200]);
    },
  },
  {
    operationId: "recordSecurePaymentIntent",
    check: "payment of a link just created reported twice -> one intent; the link's token check then 423",
    uses: ["createSecurePayment", "recordSecurePaymentIntent", "checkSecurePaymentToken"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token } = await createSecurePayment(run);
      const first = await run.send("recordSecurePaymentIntent", { path: { token } }, [200]);
      run.expect(first?.isListening === true, `isListening ${text(first?.isListening)}, expected true`);
      const second = await run.send("recordSecurePaymentIntent", { path: { token } }, [200]);
      run.expect(
        second?.intentId === first?.intentId,
        `the second report's intentId ${text(second?.intentId)}, the first's ${text(first?.intentId)}`,
      );
      await run.send("checkSecurePaymentToken", { path: { token }, query: {} }, [423]);
    },
  },
  {
    operationId: "refreshSecurePaymentStepTransaction",
    check: "a route step no quote gave, for a link just created -> 400",
    uses: ["createSecurePayment", "refreshSecurePaymentStepTransaction"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token } = await createSecurePayment(run);
      await run.send("refreshSecurePaymentStepTransaction", { path: { token } }, [400]);
    },
  },
  {
    operationId: "recordSecurePaymentUserEvent",
    check: "a payer's step on the page of a link just created -> 202 received",
    uses: ["createSecurePayment", "recordSecurePaymentUserEvent"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token } = await createSecurePayment(run);
      const answer = await run.send("recordSecurePaymentUserEvent", { path: { token } }, [202]);
      run.expect(answer?.received === true, `received ${text(answer?.received)}, expected true`);
    },
  },
  {
    operationId: "recordMulticallPayoutIntent",
    check: "intents for both payouts of a multicall link just created -> 200, recorded 2",
    uses: ["createPayoutSecurePayment", "createMulticallPayout", "recordMulticallPayoutIntent"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const childTokens = [
        (await run.send("createPayoutSecurePayment", {}, [201]))?.token,
        (await run.send("createPayoutSecurePayment", {}, [201]))?.token,
      ];
      const created = await run.send("createMulticallPayout", { body: { childTokens } }, [201]);
      const token = String(created?.token);
      const recorded = await run.send("recordMulticallPayoutIntent", { path: { token } }, [200]);
      run.expect(recorded?.recorded === 2, `recorded ${text(recorded?.recorded)}, expected 2`);
    },
  },
  {
    operationId: "broadcastSecurePaymentTronTransaction",
    check: "a signed Tron transaction for a link just created (on an EVM network) -> 400",
    uses: ["createSecurePayment", "broadcastSecurePaymentTronTransaction"],
    statelessReason: prismKeepsNothing,
    async steps(run) {
      const { token } = await createSecurePayment(run);
      await run.send("broadcastSecurePaymentTronTransaction", { path: { token } }, [400]);
    },
  },
  {
    operationId: "createPayeeDestination",
    check:
      "another wallet's signature -> 400, the payee's -> 201, read back by id and as the wallet's active one",
    uses: [
      "getPayeeDestinationSigningData",
      "createPayeeDestination",
      "getPayeeDestination",
      "getActivePayeeDestination",
    ],
    statelessReason: prismKeepsNothing,
    steps: registerThenRead,
  },
  {
    operationId: "deactivatePayeeDestination",
    check: "secure payment to a destination just registered -> 201; deactivated -> the same payment 400",
    uses: [
      "getPayeeDestinationSigningData",
      "createPayeeDestination",
      "createSecurePayment",
      "deactivatePayeeDestination",
      "getActivePayeeDestination",
    ],
    statelessReason: prismKeepsNothing,
    steps: payThenDeactivate,
  },
  {
    operationId: "listCurrenciesV2",
    check: "the same currencies as GET /v1/currencies",
    uses: ["listCurrencies", "listCurrenciesV2"],
    statelessReason: prismAnswersExamples,
    steps: (run) => sameAnswer(run, "listCurrencies", "listCurrenciesV2"),
  },
  {
    operationId: "listConversionRoutesV2",
    check: "the same routes as GET /v1/currencies/{currencyId}/conversion-routes",
    uses: ["listConversionRoutes", "listConversionRoutesV2"],
    statelessReason: prismAnswersExamples,
    steps: (run) => sameAnswer(run, "listConversionRoutes", "listConversionRoutesV2"),
  },
];

/** The checks the scenarios below add, by operation: what a report lists them as. */
export const v2ScenarioChecks: ReadonlyArray<{ operationId: string; check: string }> = scenarios.map(
  ({ operationId, check }) => ({ operationId, check }),
);

/**
 * Scenarios of the v2 payer, client-ID, currency, payee-destination and secure-payment operations: what one call
 * writes, the next reads, on the paths old and new alike. Only a server keeping state can pass them.
 */
export function planV2Scenarios(context: SuiteContext, operations: SpecOperation[]): PlannedCheck[] {
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  return scenarios.flatMap((scenario) => {
    const used = scenario.uses.map((operationId) => byId.get(operationId));
    if (used.some((operation) => operation === undefined)) return [];
    return [
      defineCheck(context, {
        operationId: scenario.operationId,
        check: scenario.check,
        notRunReason: scenarioNotRunReason(context, used as SpecOperation[], scenario.statelessReason),
        body: () => {
          const run = new ScenarioRun(context, byId);
          return run.verdict(scenario.check, () => scenario.steps(run));
        },
      }),
    ];
  });
}
