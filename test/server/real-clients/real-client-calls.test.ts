import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../src/server/index.ts";
import { readTypedData } from "../../../src/wire/typed-data.ts";
import { describeUnless } from "../../support/describe-unless.ts";
import { referenceMissingReason } from "../../support/published-examples.ts";
import { loadPublishedSchemas, type PublishedSchemas } from "../../support/published-schemas.ts";
import { signInWithWallet } from "../domain/auth/sign-in.ts";
import { type Answer, apiKey, feeAddress, payee, type TestServer } from "../helpers.ts";
import { fauSepolia, signPayeeDestination } from "../payee-destination-support.ts";
import { subscriber } from "../recurring-payout-support.ts";
import { startWebhookServer } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { type ClientCall, type Preparation, realClientCalls } from "./client-calls.ts";
import { memberValues, typeIssues } from "./read-members.ts";

// Local keys, known to the test only: the payer's wallet, which signs payment intents, and a
// payee's wallet, which signs its payee destination.
const payerWallet = privateKeyToAccount("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
const destinationWallet = privateKeyToAccount(
  "0x6a1f2b9c4d8e3f7a5b0c9d2e4f6a8b1c3d5e7f9a0b2c4d6e8f1a3b5c7d9e0f21",
);

const payerEmail = "dana.whitfield@example.com";

/** The flow's values, named as the calls' placeholders name them. */
const state: Record<string, unknown> = {
  payee,
  wallet: payerWallet.address,
  feeAddress,
  subscriber: subscriber.address,
  payerEmail,
  payerEmailInPath: encodeURIComponent(payerEmail),
  destinationWallet: destinationWallet.address,
  fau: fauSepolia.tokenAddress,
};

/** A value of the table with its placeholders filled from the flow. */
function fill(value: unknown): unknown {
  if (typeof value === "string") {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole?.[1] !== undefined) return lookUp(whole[1]);
    return value.replace(/\{(\w+)\}/g, (_, name: string) => String(lookUp(name)));
  }
  if (Array.isArray(value)) return value.map(fill);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, fill(member)]));
  }
  return value;
}

function lookUp(name: string): unknown {
  if (!(name in state)) throw new Error(`the flow has no value named ${name} yet`);
  return state[name];
}

/** What the payer's wallet sends for a piece of typed data: its signature, nonce and deadline. */
async function signPermit(typedDataJson: string) {
  const typedData = readTypedData(typedDataJson);
  return {
    signature: await payerWallet.signTypedData(typedData as never),
    nonce: String(typedData.message.nonce),
    deadline: String(typedData.message.deadline ?? typedData.message.expiry),
  };
}

/** The steps a client's user takes outside the API before a call. */
const preparations: Record<Preparation, (server: TestServer) => Promise<void>> = {
  async signRecurringPermit() {
    const permit = readTypedData(lookUp("recurringPaymentPermit"));
    state.permitSignature = await subscriber.signTypedData(permit as never);
  },
  async approvePayer(server) {
    const clientUserId = lookUp("payerEmailInPath");
    const payer = await server.call("PATCH", `/sandbox/payers/${clientUserId}`, {
      body: { kycStatus: "approved" },
    });
    expect(payer.status, payer.text).toBe(200);
    const details = await server.call(
      "PATCH",
      `/sandbox/payers/${clientUserId}/payment-details/${lookUp("paymentDetailsId")}`,
      { body: { status: "approved" } },
    );
    expect(details.status, details.text).toBe(200);
  },
  async signPayeeDestination() {
    const signingData = lookUp("destinationSigningData") as {
      nonce: string;
      typedData: unknown;
      destinationId: string;
    };
    state.destinationNonce = signingData.nonce;
    state.destinationSignature = await destinationWallet.signTypedData(
      readTypedData(signingData.typedData) as never,
    );
    state.destinationId = signingData.destinationId;
    state.destinationIdInPath = encodeURIComponent(signingData.destinationId);
  },
  async signDestinationDeactivation(server) {
    const { nonce, signature } = await signPayeeDestination(
      server,
      destinationWallet,
      "deactivate",
      fauSepolia,
    );
    state.deactivationNonce = nonce;
    state.deactivationSignature = signature;
  },
  async signIn(server) {
    const { cookie } = await signInWithWallet(server);
    state.sessionToken = cookie.slice("session_token=".length);
  },
  async createClientIdToLink(server) {
    const created = await server.call("POST", "/v2/client-ids", {
      body: { label: "Harbour storefront", allowedDomains: ["https://harbour.example.com"] },
    });
    expect(created.status, created.text).toBe(201);
    state.linkedClientId = created.body.clientId;
  },
  async signPaymentIntent() {
    const pay = lookUp("intentPay") as {
      paymentIntent: string;
      approvalPermitPayload?: string | null;
      metadata: { supportsEIP2612: boolean };
    };
    // A token without EIP-2612 is approved by a transaction instead, and no permit is sent.
    const permit = pay.metadata.supportsEIP2612 && pay.approvalPermitPayload;
    state.signedPermits = {
      signedPaymentIntent: await signPermit(pay.paymentIntent),
      ...(permit ? { signedApprovalPermit: await signPermit(permit) } : {}),
    };
  },
};

const credentials: Record<ClientCall["credential"], () => Record<string, string>> = {
  apiKey: () => ({ "x-api-key": apiKey }),
  apiKeyCapitalised: () => ({ "X-Api-Key": apiKey }),
  clientId: () => ({}),
  orchestratorKey: () => ({ "x-orchestrator-key": sampleCredentials.orchestratorKey }),
  sessionBearer: () => ({ authorization: `Bearer ${lookUp("sessionToken")}` }),
};

const sentBodies = new Map<number, unknown>();

async function makeCall(server: TestServer, call: ClientCall, index: number): Promise<Answer> {
  for (const preparation of call.needs ?? []) await preparations[preparation](server);
  const body = call.body === undefined ? undefined : fill(call.body);
  sentBodies.set(index, body);
  return server.call(call.method, fill(call.path) as string, {
    auth: call.credential === "clientId" ? "clientId" : "none",
    headers: credentials[call.credential](),
    ...(body === undefined ? {} : { body }),
  });
}

/** How the answer departs from what the client reads: its status, a member's type or value. */
function readIssues(call: ClientCall, answer: Answer): string[] {
  if (answer.status !== call.status)
    return [`answered ${answer.status}, the client expects ${call.status}: ${answer.text}`];
  const issues = Object.entries(call.reads).flatMap(([member, type]) =>
    typeIssues(answer.body, member, type),
  );
  for (const [member, expected] of Object.entries(call.equals ?? {})) {
    const [actual] = memberValues(answer.body, member);
    if (JSON.stringify(actual) !== JSON.stringify(fill(expected))) {
      issues.push(`${member} is ${JSON.stringify(actual)}, not ${JSON.stringify(fill(expected))}`);
    }
  }
  return issues;
}

function keepValues(call: ClientCall, answer: Answer): void {
  for (const [name, member] of Object.entries(call.keep ?? {})) {
    state[name] = member === "$" ? answer.body : memberValues(answer.body, member)[0];
  }
}

const title = (call: ClientCall, index: number) => {
  const path = call.path.split("?")[0];
  const note = call.payreqDiffers
    ? ` (payreq differs, the service answers ${call.payreqDiffers.serviceStatus}: ${call.payreqDiffers.reason})`
    : call.clientDeparts
      ? ` (the client departs from the published contract: ${call.clientDeparts})`
      : "";
  return `${index + 1}. ${call.client} ${call.source}: ${call.method} ${path} -> ${call.status}${note}`;
};

const published: PublishedSchemas | undefined = referenceMissingReason ? undefined : loadPublishedSchemas();

let server: TestServer;
let hook: Receiver;
const answers = new Map<number, Answer>();
beforeAll(async () => {
  // Webhook targets on this machine allowed, for the orchestrator's webhook test.
  server = await startWebhookServer();
  hook = await startReceiver();
  state.hookUrl = hook.url;
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

describe("the calls real clients make, against the reference server", () => {
  // One flow: each call may use what an earlier one answered, as in the client.
  realClientCalls.forEach((call, index) => {
    it(title(call, index), async () => {
      const answer = await makeCall(server, call, index);
      answers.set(index, answer);
      expect(readIssues(call, answer)).toEqual([]);
      keepValues(call, answer);
    });
  });
});

describeUnless(referenceMissingReason, "the same answers, against the published answer schemas", () => {
  realClientCalls.forEach((call, index) => {
    const unchecked = published?.uncheckedReason(call.upstreamOperationId, call.status);
    if (unchecked) {
      it.skip(`${title(call, index)} (not checked: ${unchecked})`, () => {});
      return;
    }
    it(title(call, index), () => {
      const answer = answers.get(index);
      if (!answer || !published) throw new Error("the call was not made");
      expect(published.issues(call.upstreamOperationId, call.status, answer.body)).toBe("");
    });
  });
});

// request-network-api-client-ts checks each body against the published request schema before
// sending it: the bodies transcribed for it must pass, or the client would not send them.
describeUnless(
  referenceMissingReason,
  "the bodies api-client-ts sends, against the published request schemas",
  () => {
    realClientCalls.forEach((call, index) => {
      if (call.client !== "request-network-api-client-ts" || call.body === undefined) return;
      const unchecked = published?.requestUncheckedReason(call.upstreamOperationId);
      if (unchecked) {
        it.skip(`${title(call, index)} (not checked: ${unchecked})`, () => {});
        return;
      }
      it(title(call, index), () => {
        if (!sentBodies.has(index) || !published) throw new Error("the call was not made");
        expect(published.requestIssues(call.upstreamOperationId, sentBodies.get(index))).toBe("");
      });
    });
  },
);
