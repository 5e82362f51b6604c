import { describe, expect, it } from "vitest";
import { createDefaultConfig, parseConfig, type SandboxConfig } from "../../../src/server/index.ts";
import { problemsOf } from "../helpers.ts";

function withEndpoints(endpoints: unknown[], settings: Record<string, unknown> = {}): SandboxConfig {
  const config = createDefaultConfig();
  (config.accounts[0] as unknown as Record<string, unknown>).webhookEndpoints = endpoints;
  return { ...config, ...settings };
}

describe("webhook settings in the configuration file", () => {
  it("accepts endpoints, retry delays, a timeout, bounds on attempts at once, allowed targets, an endpoint limit and the retired guard flag", () => {
    const config = withEndpoints(
      [
        { url: "https://shop.example.com/webhooks" },
        {
          id: "orders",
          url: "http://127.0.0.1:4000/hooks?from=payreq",
          secret: "whsec_orders_0123456789",
          events: ["payment.confirmed", "payment.failed"],
        },
      ],
      {
        webhookRetryDelaysMs: [10, 20],
        webhookTimeoutMs: 1000,
        maxConcurrentWebhookAttempts: 100,
        maxConcurrentWebhookAttemptsPerEndpoint: 1,
        allowWebhookTargets: ["http://127.0.0.1:4000", "localhost", "[::1]", "receiver.internal"],
        maxWebhookEndpointsPerAccount: 2,
        blockPrivateWebhookTargets: true,
      },
    );
    expect(parseConfig(config)).toEqual({
      ...config,
      securePaymentLifetimeSeconds: 604_800,
      clientIdRateLimitPerMinute: 300,
      rateLimit: false,
      requestTimeoutMs: 30_000,
      sessionLifetimeSeconds: 86_400,
      walletChallengeLifetimeSeconds: 300,
      webhookPollIntervalMs: 1000,
      eventLogRetention: 10_000,
      webhookDeliveryRetention: 10_000,
      strictBodies: false,
      databaseConnectTimeoutMs: 5000,
      databaseStatementTimeoutMs: 5000,
      databaseLockTimeoutMs: 2000,
    });
  });

  it("refuses allow-list entries that are no origin or host, and too many configured endpoints", () => {
    expect(
      problemsOf(
        withEndpoints([{ url: "https://a.example.com/hooks" }, { url: "https://b.example.com/hooks" }], {
          allowWebhookTargets: [
            "http://127.0.0.1:4000/hooks",
            "localhost:4000",
            "ftp://files.example",
            "a b",
          ],
          maxWebhookEndpointsPerAccount: 1,
        }),
      ),
    ).toEqual([
      'allowWebhookTargets[0]: must be an origin such as http://127.0.0.1:4000 or a host such as localhost, 127.0.0.1 or [::1], got "http://127.0.0.1:4000/hooks"',
      'allowWebhookTargets[1]: must be an origin such as http://127.0.0.1:4000 or a host such as localhost, 127.0.0.1 or [::1], got "localhost:4000"',
      'allowWebhookTargets[2]: must be an origin such as http://127.0.0.1:4000 or a host such as localhost, 127.0.0.1 or [::1], got "ftp://files.example"',
      'allowWebhookTargets[3]: must be an origin such as http://127.0.0.1:4000 or a host such as localhost, 127.0.0.1 or [::1], got "a b"',
      "accounts[0].webhookEndpoints: lists 2 endpoints, more than maxWebhookEndpointsPerAccount (1)",
    ]);
    expect(problemsOf({ ...createDefaultConfig(), maxWebhookEndpointsPerAccount: 0 })).toEqual([
      "maxWebhookEndpointsPerAccount: must be >= 1, got 0",
    ]);
  });

  it("refuses blockPrivateWebhookTargets: false, which no longer turns the guard off", () => {
    expect(problemsOf({ ...createDefaultConfig(), blockPrivateWebhookTargets: false })).toEqual([
      'blockPrivateWebhookTargets: false no longer turns the webhook target guard off; remove it and list your local receivers in allowWebhookTargets, such as ["http://127.0.0.1:4000"] or ["localhost"]',
    ]);
  });

  it("names every bad webhook field, never echoing a secret", () => {
    expect(
      problemsOf(
        withEndpoints(
          [
            { url: "ftp://shop.example.com/hooks" },
            { url: "https://user:pw@shop.example.com/hooks", secret: "short" },
            { url: "https://shop.example.com/hooks#top", events: ["payment.reversed"] },
            { url: "https://shop.example.com/hooks", colour: "blue" },
          ],
          {
            webhookRetryDelaysMs: [1000, 5000, 15000, 60000],
            webhookTimeoutMs: 0,
            maxConcurrentWebhookAttempts: 0,
            maxConcurrentWebhookAttemptsPerEndpoint: 1.5,
          },
        ),
      ),
    ).toEqual([
      'accounts[0].webhookEndpoints[0].url: must be an http or https URL, got "ftp://shop.example.com/hooks"',
      "accounts[0].webhookEndpoints[1].secret: must have at least 16 characters, got a value of 5 characters",
      'accounts[0].webhookEndpoints[2].events[0]: must be equal to one of the allowed values, got "payment.reversed"',
      "accounts[0].webhookEndpoints[3].colour: unknown field; remove it or check its spelling",
      "webhookRetryDelaysMs: must have at most 3 items, got [1000,5000,15000,60000]",
      "webhookTimeoutMs: must be >= 1, got 0",
      "maxConcurrentWebhookAttempts: must be >= 1, got 0",
      "maxConcurrentWebhookAttemptsPerEndpoint: must be integer, got 1.5",
    ]);
    expect(
      problemsOf(
        withEndpoints([
          { url: "https://user:pw@shop.example.com/hooks" },
          { url: "https://shop.example.com/hooks#top" },
        ]),
      ),
    ).toEqual([
      "accounts[0].webhookEndpoints[0].url: must not contain credentials (user:password@)",
      "accounts[0].webhookEndpoints[1].url: must not contain a fragment (#...)",
    ]);
  });

  it("refuses repeated endpoint ids, the default ones included", () => {
    expect(
      problemsOf(
        withEndpoints([
          { url: "https://shop.example.com/a" },
          { id: "we_config_0_0", url: "https://shop.example.com/b" },
        ]),
      ),
    ).toEqual([
      "accounts[0].webhookEndpoints[1].id: repeats the webhook endpoint id of accounts[0].webhookEndpoints[0].id; each must be unique",
    ]);
  });
});
