import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { formatPayeeAddress } from "../../src/chain/index.ts";
import { newRequestId, newTxHash, newUlid, newUuid } from "../../src/server/ids.ts";
import { bankAccount, payerRegistration } from "./fixtures.ts";
import { type CallOptions, payee, payer, type TestServer, usdcOnBase } from "./helpers.ts";
import { fauSepolia, registerPayeeDestination, signPayeeDestination } from "./payee-destination-support.ts";
import type { RecordKind } from "./record-inputs.ts";

/** An account as a test calls it: with its API key, or with its client ID from an allowed origin. */
export interface TestAccount {
  name: string;
  apiKey: CallOptions;
  clientId: CallOptions;
  /** The key of one of the account's orchestrators. */
  orchestrator: CallOptions;
  /** A session of a wallet configured for the account (the Auth API's `session_token` cookie). */
  session: CallOptions;
}

// biome-ignore lint/suspicious/noExplicitAny: the makers read the answers freely
type AnswerBody = any;

/** A wallet nobody registered as a payee destination. */
const newWallet = () => privateKeyToAccount(generatePrivateKey());

/**
 * The records of one account that one test uses, made at their first use: one of each kind
 * (`one`), and more when a list needs them (`several`). Records made for one test are not
 * shared with another, so that what one test changes no other sees.
 */
export class AccountRecords {
  private readonly made = new Map<RecordKind, Promise<string>>();

  constructor(
    readonly server: TestServer,
    readonly account: TestAccount,
    /** Where the account's webhook endpoint sends its deliveries. */
    private readonly hookUrl: string,
  ) {}

  /** Where the account's webhooks send their deliveries. */
  hookUrlFor(): string {
    return this.hookUrl;
  }

  /** Calls as the account with its API key; throws unless the answer is `status`. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<AnswerBody> {
    const answer = await this.server.call(method, path, {
      ...this.account.apiKey,
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status !== status) {
      throw new Error(`${this.account.name}: ${method} ${path} answered ${answer.status}: ${answer.text}`);
    }
    return answer.body;
  }

  /** Calls as the account's orchestrator; throws unless the answer is `status`. */
  async expectAsOrchestrator(
    status: number,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<AnswerBody> {
    const answer = await this.server.call(method, path, {
      ...this.account.orchestrator,
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status !== status) {
      throw new Error(`${this.account.name}: ${method} ${path} answered ${answer.status}: ${answer.text}`);
    }
    return answer.body;
  }

  /** The account's record of `kind` for this test. */
  one(kind: RecordKind): Promise<string> {
    let record = this.made.get(kind);
    if (!record) {
      record = makers[kind](this);
      this.made.set(kind, record);
    }
    return record;
  }

  /** `count` different records of `kind`: `one(kind)` first, then new ones. */
  async several(kind: RecordKind, count: number): Promise<string[]> {
    const others = Array.from({ length: count - 1 }, () => makers[kind](this));
    return Promise.all([this.one(kind), ...others]);
  }

  /** The account's request for this test, as the sandbox shows it. */
  async sandboxRequest(): Promise<{ paymentReference: string; payments: { txHash: string }[] }> {
    return this.expect(200, "GET", `/sandbox/requests/${await this.one("request")}`);
  }

  async webhookDelivery(): Promise<{ eventId: string }> {
    return this.expect(200, "GET", `/sandbox/webhooks/deliveries/${await this.one("webhookDelivery")}`);
  }

  newWebhookEndpoint(): Promise<{ id: string }> {
    return this.expect(201, "POST", "/sandbox/webhooks/endpoints", { url: this.hookUrl });
  }
}

/** A payout link of 10 USDC on Base. */
const payoutLink = async (records: AccountRecords) =>
  (
    await records.expect(201, "POST", "/v2/secure-payments/payouts", {
      recipient: payee,
      network: "base",
      currency: "USDC-base",
      amount: "10",
    })
  ).token as string;

/** How a record of each kind is made in an account, through the API. */
const makers: Record<RecordKind, (records: AccountRecords) => Promise<string>> = {
  // The request of a link, 150 USD in USDC on Base, partly paid: the payment is searchable,
  // and its webhook is in the delivery log of the account's endpoint.
  request: async (records) => {
    await records.one("webhookEndpoint");
    const link = { requests: [usdcOnBase("150.00")] };
    const [requestId] = (await records.expect(201, "POST", "/v2/secure-payments", link)).requestIds;
    const payment = { outcome: "partial", amount: "1", txHash: newTxHash() };
    await records.expect(201, "POST", `/sandbox/requests/${requestId}/payments`, payment);
    await records.server.server.webhooks.settled();
    return requestId;
  },
  paymentReference: async (records) => (await records.sandboxRequest()).paymentReference,
  paymentTxHash: async (records) => (await records.sandboxRequest()).payments[0]?.txHash as string,
  link: async (records) =>
    (await records.expect(201, "POST", "/v2/secure-payments", { requests: [usdcOnBase()] })).token,
  payoutLink,
  multicallLink: async (records) => {
    const childTokens = await Promise.all([payoutLink(records), payoutLink(records)]);
    return (await records.expect(201, "POST", "/v2/secure-payments/multicall-payouts", { childTokens }))
      .token;
  },
  // A cross-chain payment of the request from USDC on Optimism.
  paymentIntent: async (records) => {
    const query = new URLSearchParams({ chain: "OPTIMISM", token: "USDC", wallet: payer });
    return (await records.expect(200, "GET", `/v2/request/${await records.one("request")}/pay?${query}`))
      .paymentIntentId;
  },
  recurringPayment: async (records) => {
    const body = {
      payer,
      payee,
      currency: "USDC-base",
      amount: "50",
      totalPayments: 4,
      spender: "0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e",
    };
    return (await records.expect(201, "POST", "/sandbox/recurring-payments", body)).id;
  },
  clientIdRecord: async (records) => {
    const body = { label: "Shop", allowedDomains: ["https://shop.example.com"] };
    return (await records.expect(201, "POST", "/v2/client-ids", body)).id;
  },
  payer: async (records) => {
    const clientUserId = `payer-${newUuid()}`;
    await records.expect(200, "POST", "/v2/payer", payerRegistration(clientUserId));
    return clientUserId;
  },
  paymentDetail: async (records) => {
    const path = `/v2/payer/${await records.one("payer")}/payment-details`;
    return (await records.expect(201, "POST", path, bankAccount)).payment_detail.id;
  },
  payeeDestination: async (records) =>
    (await registerPayeeDestination(records.server, newWallet(), fauSepolia, records.account.clientId))
      .destinationId,
  signingNonce: async (records) => {
    const wallet = newWallet();
    const as = records.account.clientId;
    return (await signPayeeDestination(records.server, wallet, "add", fauSepolia, wallet.address, as)).nonce;
  },
  // An endpoint with a delivery: a test event.
  webhookEndpoint: async (records) => {
    const { id } = await records.newWebhookEndpoint();
    await records.expect(202, "POST", `/sandbox/webhooks/endpoints/${id}/test`, {
      event: "payment.confirmed",
    });
    return id;
  },
  webhookDelivery: async (records) => {
    const query = `endpointId=${await records.one("webhookEndpoint")}`;
    return (await records.expect(200, "GET", `/sandbox/webhooks/deliveries?${query}`)).deliveries[0].id;
  },
  webhookEvent: async (records) => (await records.webhookDelivery()).eventId,
  linkedClientId: async (records) => {
    const created = await records.expect(201, "POST", "/v2/client-ids", {
      label: "Linked",
      allowedDomains: ["https://shop.example.com"],
    });
    await records.expectAsOrchestrator(201, "POST", "/v2/orchestrators/client-ids", {
      clientId: created.clientId,
    });
    return created.clientId;
  },
  orchestratorFeeConfig: async (records) => {
    const body = { flow: "incoming", feeBearer: "recipient", bps: 100, evmRecipientAddress: payee };
    const clientId = await records.one("linkedClientId");
    return (
      await records.expectAsOrchestrator(201, "POST", "/v2/orchestrators/fee-configs", { ...body, clientId })
    ).id;
  },
  orchestratorWebhook: async (records) => {
    const url = `${records.hookUrlFor()}?webhook=${randomBytes(4).toString("hex")}`;
    return (await records.expectAsOrchestrator(201, "POST", "/v2/orchestrators/webhooks", { url })).webhook
      .id;
  },
  journey: async (records) => (await records.expect(201, "POST", "/v2/journey", {})).journeyId,
  // A fault that changes nothing the other calls see: a millisecond more on the health check.
  sandboxFault: async (records) =>
    (
      await records.expect(201, "POST", "/sandbox/faults", {
        operationId: "getHealth",
        kind: "latency",
        latencyMs: 1,
      })
    ).id,
  // A commerce payment of 1 USDC on Base, authorized, with nothing captured yet.
  commercePayment: async (records) => {
    const { requestId } = await records.expect(201, "POST", "/v2/commerce-payments/authorize/calldata", {
      merchantId: "shop-42",
      merchantAddress: payee,
      buyerAddress: payer,
      amount: "1000000",
      paymentCurrency: "USDC-base",
    });
    await records.expect(200, "POST", `/v2/commerce-payments/${requestId}/authorize`);
    return requestId;
  },
};

/** An identifier of `kind` in the form the service gives, which no record has. */
export function unknownRecordId(kind: RecordKind): string {
  const ulid = newUlid(new Date());
  switch (kind) {
    case "request":
    case "commercePayment":
      return newRequestId();
    case "paymentReference":
      return `0x${randomBytes(8).toString("hex")}`;
    case "paymentTxHash":
      return newTxHash();
    case "payer":
      return `payer-${newUuid()}`;
    case "paymentDetail":
      return newUuid();
    case "payeeDestination":
      return `${formatPayeeAddress(newWallet().address, fauSepolia.chainId)}:${fauSepolia.tokenAddress}`;
    case "webhookEndpoint":
    case "orchestratorWebhook":
      return `we_${ulid}`;
    case "linkedClientId":
      return `cli_${randomBytes(16).toString("hex")}`;
    case "sandboxFault":
      return `flt_${ulid}`;
    default:
      return ulid;
  }
}
