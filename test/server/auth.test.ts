import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig, type SandboxConfig, sampleCredentials } from "../../src/server/index.ts";
import {
  apiKey,
  browserOrigin,
  clientId,
  problemErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "./helpers.ts";

const otherAccountKey = "sk_other_account_0000000001";

function configWithClientIds(): SandboxConfig {
  const config = createDefaultConfig();
  const account = config.accounts[0] as SandboxConfig["accounts"][number];
  account.clientIds.push(
    {
      id: "cid_inactive",
      clientId: "pk_inactive_00000001",
      label: "Paused",
      allowedDomains: [browserOrigin, "https://paused.example"],
      status: "inactive",
    },
    {
      id: "cid_revoked",
      clientId: "pk_revoked_000000001",
      label: "Gone",
      allowedDomains: [browserOrigin],
      status: "revoked",
    },
  );
  config.accounts.push({
    id: "acct_other",
    apiKeys: [otherAccountKey],
    webhookSecret: "whsec_other_account_01",
    clientIds: [
      {
        id: "cid_other",
        clientId: "pk_other_0000000001",
        label: "Other",
        allowedDomains: ["https://other.example"],
      },
    ],
  });
  config.clientIdRateLimitPerMinute = 3;
  return config;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithClientIds() });
});
afterAll(() => server.close());

const withClientId = (id: string, origin?: string) => ({
  auth: "none" as const,
  headers: { "x-client-id": id, ...(origin === undefined ? {} : { origin }) },
});

describe("API key", () => {
  it("is required: a call without any credential answers 401", async () => {
    const answer = await server.call("GET", "/v1/currencies", { auth: "none" });
    problemErrors(answer, "/problems/unauthorized", 401);
    expect(answer.body.detail).toBe(
      "Send an API key in x-api-key, or a client ID in x-client-id together with Origin.",
    );
  });

  it("answers 401 to an unknown key without echoing it", async () => {
    const answer = await server.call("GET", "/v1/currencies", {
      auth: "none",
      headers: { "x-api-key": "sk_guess_1234567890abcdef" },
    });
    problemErrors(answer, "/problems/unauthorized", 401);
    expect(answer.body.detail).toBe("The API key in x-api-key is not recognised.");
    expect(answer.text).not.toContain("sk_guess");
  });

  it("is checked before the body: a bad key with a bad body answers 401", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      auth: "none",
      headers: { "x-api-key": "wrong", "content-type": "application/json" },
      rawBody: "{not json",
    });
    problemErrors(answer, "/problems/unauthorized", 401);
  });

  it("of any configured account is accepted", async () => {
    const answer = await server.call("GET", "/v1/currencies?network=base", {
      auth: "none",
      headers: { "x-api-key": otherAccountKey },
    });
    expect(answer.status).toBe(200);
  });
});

describe("client ID with Origin", () => {
  it("is accepted from an allowed origin where the operation lists it", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      body: { requests: [usdcOnBase()] },
    });
    expect(answer.status).toBe(201);
  });

  it("is accepted from the server's own origin (allowed domain `self`)", async () => {
    const answer = await server.call(
      "GET",
      "/v1/currencies?network=base",
      withClientId(clientId, server.url),
    );
    expect(answer.status).toBe(200);
  });

  it("answers 403 from an origin outside its domains, before validating the body", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      ...withClientId(clientId, "https://evil.example"),
      rawBody: "{}",
      headers: {
        "x-client-id": clientId,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
    });
    problemErrors(answer, "/problems/origin-not-allowed", 403);
    expect(answer.body.detail).toBe(
      "Origin https://evil.example is not among the allowed domains of this client ID.",
    );
  });

  it("compares origins exactly: scheme, host and port", async () => {
    for (const origin of [
      "https://localhost:5173",
      "http://localhost:5174",
      "http://localhost:5173/",
      "http://LOCALHOST:5173",
    ]) {
      const answer = await server.call("GET", "/v1/currencies", withClientId(clientId, origin));
      expect(answer.status, origin).toBe(403);
    }
  });

  it("answers 401 without Origin, and for unknown, inactive or revoked client IDs", async () => {
    const cases: [string, string | undefined, string][] = [
      [
        clientId,
        undefined,
        "A client ID is only valid with the Origin header of one of its allowed domains.",
      ],
      ["pk_unknown_0000000", browserOrigin, "The client ID in x-client-id is not recognised."],
      ["pk_inactive_00000001", browserOrigin, "The client ID in x-client-id is inactive."],
      ["pk_revoked_000000001", browserOrigin, "The client ID in x-client-id is revoked."],
    ];
    for (const [id, origin, detail] of cases) {
      const answer = await server.call("GET", "/v1/currencies", withClientId(id, origin));
      problemErrors(answer, "/problems/unauthorized", 401);
      expect(answer.body.detail).toBe(detail);
    }
  });

  it("is refused with 401 where the operation requires the API key", async () => {
    for (const [method, path] of [
      ["POST", "/v2/payer"],
      ["GET", `/v2/client-ids/${sampleCredentials.clientIdRecordId}`],
      ["GET", "/v1/request/0xb3581f0b0f74cc61/routes?wallet=0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9"],
      ["GET", "/sandbox/clock"],
    ] as const) {
      const answer = await server.call(method, path, { auth: "clientId" });
      problemErrors(answer, "/problems/unauthorized", 401);
      expect(answer.body.detail).toBe(
        "This operation requires an API key in x-api-key; client IDs are not accepted here.",
      );
    }
  });

  it("records when it was last used", async () => {
    server.clock.set("2026-04-12T11:30:00.000Z");
    await server.call("GET", "/v1/currencies?network=base", { auth: "clientId" });
    const record = await server.call("GET", `/v2/client-ids/${sampleCredentials.clientIdRecordId}`);
    expect(record.body.lastUsedAt).toBe("2026-04-12T11:30:00.000Z");
  });
});

describe("CORS", () => {
  it("answers a preflight from an allowed origin", async () => {
    const answer = await server.call("OPTIONS", "/v2/secure-payments", {
      auth: "none",
      headers: {
        origin: browserOrigin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-client-id, content-type",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(browserOrigin);
    // DELETE for the payee's own deactivation of a payee destination.
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET, POST, PATCH, DELETE, PUT");
    expect(answer.headers.get("access-control-allow-headers")).toBe(
      "Content-Type, X-Client-Id, X-Request-Id, Prefer",
    );
    expect(answer.headers.get("vary")).toBe("Origin");
  });

  it("refuses a preflight from any other origin with 403", async () => {
    const answer = await server.call("OPTIONS", "/v2/secure-payments", {
      auth: "none",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    problemErrors(answer, "/problems/origin-not-allowed", 403);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("exposes the response headers to allowed origins only, on errors too", async () => {
    const allowed = await server.call("GET", "/nope", { auth: "none", headers: { origin: browserOrigin } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe(browserOrigin);
    expect(allowed.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    const other = await server.call("GET", "/v1/currencies", { headers: { origin: "https://evil.example" } });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers for origins of active client IDs of any account, not for those of inactive ones", async () => {
    const preflight = (origin: string) =>
      server.call("OPTIONS", "/v1/currencies", {
        auth: "none",
        headers: { origin, "access-control-request-method": "GET" },
      });
    expect((await preflight("https://other.example")).status).toBe(204);
    expect((await preflight("https://paused.example")).status).toBe(403);
  });
});

describe("client-ID rate limit", () => {
  it("answers 429 with Retry-After and RateLimit headers past the limit, and resets with the clock", async () => {
    const rateServer = await startTestServer({ config: configWithClientIds() });
    try {
      const options = withClientId("pk_other_0000000001", "https://other.example");
      const answers = [];
      for (let i = 0; i < 4; i++)
        answers.push(await rateServer.call("GET", "/v1/currencies?network=base", options));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[0]?.headers.get("ratelimit-limit")).toBe("3");
      expect(answers[0]?.headers.get("ratelimit-remaining")).toBe("2");
      const limited = answers[3] as (typeof answers)[number];
      problemErrors(limited, "/problems/rate-limited", 429);
      expect(limited.headers.get("retry-after")).toBe("60");
      expect(limited.headers.get("ratelimit-remaining")).toBe("0");
      expect(limited.headers.get("ratelimit-reset")).toBe("60");
      expect(limited.body.detail).toBe(
        "This client ID made more than 3 requests in the current minute; retry in 60 seconds.",
      );

      // Another client ID has its own window; API keys are not limited.
      expect((await rateServer.call("GET", "/v1/currencies?network=base", { auth: "clientId" })).status).toBe(
        200,
      );
      expect((await rateServer.call("GET", "/v1/currencies?network=base")).status).toBe(200);

      rateServer.clock.set("2026-04-12T10:00:45.000Z");
      const later = await rateServer.call("GET", "/v1/currencies?network=base", options);
      expect(later.status).toBe(429);
      expect(later.headers.get("retry-after")).toBe("15");

      rateServer.clock.set("2026-04-12T10:01:00.000Z");
      expect((await rateServer.call("GET", "/v1/currencies?network=base", options)).status).toBe(200);
    } finally {
      await rateServer.close();
    }
  });
});

describe("credentials never leak", () => {
  it("no answer carries the API key", async () => {
    const answers = await Promise.all([
      server.call("GET", "/v1/currencies"),
      server.call("GET", "/nope"),
      server.call("POST", "/v2/payer", { body: {} }),
    ]);
    for (const answer of answers) expect(answer.text).not.toContain(apiKey);
  });
});
