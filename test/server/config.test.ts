import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "../../src/server/config/config-schema.ts";
import { createDefaultConfig, parseConfig } from "../../src/server/index.ts";
import { problemsOf } from "./helpers.ts";

/** The defaults of config-schema.ts, as parseConfig fills them in. */
const configDefaults = {
  securePaymentLifetimeSeconds: 604_800,
  sessionLifetimeSeconds: 86_400,
  walletChallengeLifetimeSeconds: 300,
  clientIdRateLimitPerMinute: 300,
  rateLimit: false,
  requestTimeoutMs: 30_000,
  webhookRetryDelaysMs: [1000, 5000, 15000],
  webhookTimeoutMs: 5000,
  maxConcurrentWebhookAttempts: 32,
  maxConcurrentWebhookAttemptsPerEndpoint: 8,
  allowWebhookTargets: [],
  maxWebhookEndpointsPerAccount: 20,
  webhookPollIntervalMs: 1000,
  eventLogRetention: 10_000,
  webhookDeliveryRetention: 10_000,
  strictBodies: false,
  databaseConnectTimeoutMs: 5000,
  databaseStatementTimeoutMs: 5000,
  databaseLockTimeoutMs: 2000,
};

describe("the configuration schema", () => {
  it("is a valid JSON Schema 2020-12 document, which parseConfig does not check at every start", () => {
    const ajv = new Ajv2020();
    expect(ajv.validateSchema(sandboxConfigSchema()), ajv.errorsText()).toBe(true);
  });
});

describe("parseConfig", () => {
  it("accepts the built-in configuration", () => {
    expect(parseConfig(createDefaultConfig())).toEqual({ ...createDefaultConfig(), ...configDefaults });
  });

  it("fills in the defaults on a copy, keeping the values it is given", () => {
    const given = { ...createDefaultConfig(), webhookTimeoutMs: 1500 };
    const before = structuredClone(given);
    expect(parseConfig(given)).toEqual({ ...configDefaults, ...given });
    expect(given).toEqual(before);
  });

  it("names every bad field in one error", () => {
    expect(
      problemsOf({
        accounts: [
          {
            id: "",
            apiKeys: ["sk_has space inside_1234"],
            webhookSecret: "whsec_long_enough_01",
            clientIds: [
              {
                id: "c",
                clientId: "pk_client_01",
                label: "l",
                allowedDomains: ["self"],
                feePercentage: "150",
                feeAddress: "0x12",
                status: "paused",
              },
            ],
          },
        ],
        clientIdRateLimitPerMinute: 0,
        publicBaseUrl: "https://sandbox.example.com/api",
      }),
    ).toEqual([
      'accounts[0].id: must have at least 1 character, got ""',
      "accounts[0].apiKeys[0]: must be printable ASCII without spaces, got a value of 24 characters",
      'accounts[0].clientIds[0].feePercentage: must be a percentage from 0 to 100 such as 2.5, got "150"',
      'accounts[0].clientIds[0].feeAddress: must be an EVM address (0x and 40 hex digits), got "0x12"',
      'accounts[0].clientIds[0].status: must be equal to one of the allowed values, got "paused"',
      'publicBaseUrl: must be an origin such as https://sandbox.example.com (no path), got "https://sandbox.example.com/api"',
      "clientIdRateLimitPerMinute: must be >= 1, got 0",
    ]);
  });

  it("refuses a link lifetime over ten years, whose expiry could leave the sandbox's date range", () => {
    expect(problemsOf({ ...createDefaultConfig(), securePaymentLifetimeSeconds: 315_360_001 })).toEqual([
      "securePaymentLifetimeSeconds: must be <= 315360000, got 315360001",
    ]);
    expect(problemsOf({ ...createDefaultConfig(), securePaymentLifetimeSeconds: 315_360_000 })).toEqual([]);
  });

  it("counts characters and items in good English, and never echoes a secret", () => {
    const config = createDefaultConfig();
    const [account] = config.accounts;
    if (!account) throw new Error("the default configuration has an account");
    account.apiKeys = ["k"];
    account.webhookSecret = "w".repeat(201);
    expect(problemsOf({ ...config, webhookRetryDelaysMs: [1, 2, 3, 4] })).toEqual([
      "accounts[0].apiKeys[0]: must have at least 16 characters, got a value of 1 character",
      "accounts[0].webhookSecret: must have at most 200 characters, got a value of 201 characters",
      "webhookRetryDelaysMs: must have at most 3 items, got [1,2,3,4]",
    ]);
  });

  it("refuses a file without accounts, and one that is not an object", () => {
    expect(problemsOf({})).toEqual(["accounts: is required"]);
    expect(problemsOf([])).toEqual(["(the whole file): must be object, got []"]);
  });

  it("refuses repeated API keys, client IDs and ids across accounts", () => {
    const config = createDefaultConfig();
    const first = config.accounts[0] as (typeof config.accounts)[number];
    config.accounts.push({ ...structuredClone(first), id: "acct_second" });
    expect(problemsOf(config)).toEqual([
      "accounts[1].apiKeys[0]: repeats the API key of accounts[0].apiKeys[0]; each must be unique",
      "accounts[1].orchestrators[0].id: repeats the orchestrator id of accounts[0].orchestrators[0].id; each must be unique",
      "accounts[1].orchestrators[0].key: repeats the orchestrator key of accounts[0].orchestrators[0].key; each must be unique",
      "accounts[1].clientIds[0].id: repeats the client ID record id of accounts[0].clientIds[0].id; each must be unique",
      "accounts[1].clientIds[0].clientId: repeats the client ID of accounts[0].clientIds[0].clientId; each must be unique",
    ]);
  });

  it("tells its source in the message", () => {
    expect(() => parseConfig({}, "my-sandbox.json")).toThrow(
      "my-sandbox.json is not a valid sandbox configuration:\n  - accounts: is required",
    );
  });
});
