import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, createDefaultConfig, createServer } from "../../../../src/server/index.ts";
import { specExample } from "../../../../src/spec/spec-document.ts";
import {
  apiKey,
  type CallOptions,
  payee,
  problemErrors,
  problemsOf,
  startTestServer,
  startTestServerWithOtherAccount,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

/** Creates a fault through the sandbox API and answers it. */
async function createFault(target: TestServer, body: object) {
  const answer = await target.call("POST", "/sandbox/faults", { body });
  if (answer.status !== 201) throw new Error(`creating the fault failed: ${answer.text}`);
  return answer.body;
}

async function statusesOf(target: TestServer, count: number, options?: CallOptions): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n++) statuses.push((await target.call("GET", "/sandbox/clock", options)).status);
  return statuses;
}

const listRequests = () => server.call("GET", `/v2/request?walletAddress=${payee}`);

/** A GET on a connection of its own: resolves with the status, or rejects with the socket's error. */
function getOnce(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { agent: false, headers: { "x-api-key": apiKey } }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode ?? 0));
    });
    sent.on("error", reject);
    sent.end();
  });
}

describe("createSandboxFault", () => {
  it("answers the fault as created, and makes the next create answer 503 without creating anything", async () => {
    const before = await listRequests();
    const fault = await createFault(server, specExample("SandboxFaultCreateUnavailable") as object);
    expect(fault).toEqual({
      ...(specExample("SandboxFaultUnavailable") as object),
      id: fault.id,
      createdAt: "2026-04-12T10:00:00.000Z",
    });
    expect(fault.id).toMatch(/^flt_[0-9A-HJKMNP-TV-Z]{26}$/);

    const faulted = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] } });
    problemErrors(faulted, "/problems/service-unavailable", 503);
    expect(faulted.headers.get("retry-after")).toBe("2");
    expect(faulted.body.detail).toBe(
      `The sandbox fault ${fault.id} answered this call with 503; the operation did not run and nothing was changed; retry in 2 s (Retry-After).`,
    );
    expect((await listRequests()).body).toEqual(before.body);

    // Its one call used, the fault is gone and the operation runs again.
    expect((await server.call("GET", "/sandbox/faults")).body).toEqual({ faults: [] });
    const created = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase()] } });
    expect(created.status).toBe(201);
  });

  it("answers 429 with Retry-After, and 500, as Problems", async () => {
    await createFault(server, {
      operationId: "getSandboxClock",
      kind: "status",
      status: 429,
      retryAfterSeconds: 7,
      calls: 1,
    });
    const limited = await server.call("GET", "/sandbox/clock");
    problemErrors(limited, "/problems/rate-limited", 429);
    expect(limited.headers.get("retry-after")).toBe("7");
    await createFault(server, { operationId: "getSandboxClock", kind: "status", status: 500, calls: 1 });
    const failed = await server.call("GET", "/sandbox/clock");
    problemErrors(failed, "/problems/internal-error", 500);
    expect(failed.headers.get("retry-after")).toBeNull();
    expect(server.loggedErrors).toEqual([]);
  });

  it("applies to the next `calls` calls, then ends", async () => {
    const fault = await createFault(server, {
      operationId: "getSandboxClock",
      kind: "status",
      status: 503,
      calls: 2,
    });
    expect(await statusesOf(server, 1)).toEqual([503]);
    expect((await server.call("GET", "/sandbox/faults")).body.faults).toEqual([
      { ...fault, callsLeft: 1, seenCalls: 1, appliedCalls: 1 },
    ]);
    expect(await statusesOf(server, 2)).toEqual([503, 200]);
    expect((await server.call("GET", "/sandbox/faults")).body.faults).toEqual([]);
  });

  it("applies to a share of the calls, spread evenly: 0.5 faults every second call, 0.25 every fourth", async () => {
    const half = await createFault(server, {
      operationId: "getSandboxClock",
      kind: "status",
      status: 503,
      share: 0.5,
    });
    expect(await statusesOf(server, 6)).toEqual([200, 503, 200, 503, 200, 503]);
    expect((await server.call("GET", "/sandbox/faults")).body.faults).toEqual([
      { ...half, seenCalls: 6, appliedCalls: 3 },
    ]);
    expect((await server.call("DELETE", `/sandbox/faults/${half.id}`)).status).toBe(204);
    await createFault(server, { operationId: "getSandboxClock", kind: "status", status: 503, share: 0.25 });
    expect(await statusesOf(server, 8)).toEqual([200, 200, 200, 503, 200, 200, 200, 503]);
    expect((await server.call("DELETE", "/sandbox/faults")).status).toBe(204);
  });

  it("adds latency, then answers as usual: a later call without the fault answers first", async () => {
    await createFault(server, { operationId: "getSandboxClock", kind: "latency", latencyMs: 1500, calls: 1 });
    const order: string[] = [];
    const slow = server.call("GET", "/sandbox/clock").then((answer) => {
      order.push("delayed");
      return answer;
    });
    // The fault took the first call; this one runs at once.
    await new Promise((resolve) => setImmediate(resolve));
    const fast = server.call("GET", "/sandbox/faults").then((answer) => {
      order.push("undelayed");
      return answer;
    });
    const [delayed, undelayed] = await Promise.all([slow, fast]);
    expect(order).toEqual(["undelayed", "delayed"]);
    expect(delayed.status).toBe(200);
    expect(delayed.body).toEqual({ now: "2026-04-12T10:00:00.000Z", offsetSeconds: 0 });
    expect(undelayed.body).toEqual({ faults: [] });
  });

  it("drops the connection: the client sees a socket error, and the next call is answered", async () => {
    await createFault(server, { operationId: "getSandboxClock", kind: "drop", calls: 1 });
    await expect(getOnce(`${server.url}/sandbox/clock`)).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(await getOnce(`${server.url}/sandbox/clock`)).toBe(200);
  });

  it("applies to every operation but the fault operations when it names none", async () => {
    await createFault(server, { kind: "drop" });
    await expect(getOnce(`${server.url}/v1/currencies`)).rejects.toMatchObject({ code: "ECONNRESET" });
    const listed = await server.call("GET", "/sandbox/faults");
    expect(listed.body.faults).toHaveLength(1);
    expect(listed.body.faults[0]).toMatchObject({
      operationId: null,
      kind: "drop",
      seenCalls: 1,
      appliedCalls: 1,
    });
    expect((await server.call("DELETE", "/sandbox/faults")).status).toBe(204);
    expect(await getOnce(`${server.url}/v1/currencies`)).toBe(200);
  });

  it("leaves the calls answered by a Prefer header alone", async () => {
    await createFault(server, { operationId: "getSandboxClock", kind: "status", status: 503, calls: 1 });
    const forced = await server.call("GET", "/sandbox/clock", { headers: { prefer: "code=200" } });
    expect(forced.body).toEqual(specExample("SandboxClockMoved"));
    expect(await statusesOf(server, 2)).toEqual([503, 200]);
  });

  it("faults only the calls of the account that created it", async () => {
    const other = { auth: "none", headers: { "x-api-key": "sk_other_account_0000000099" } } as const;
    await createFault(server, { operationId: "getSandboxClock", kind: "status", status: 503 });
    expect(await statusesOf(server, 1, other)).toEqual([200]);
    expect((await server.call("GET", "/sandbox/faults", other)).body).toEqual({ faults: [] });
    expect(await statusesOf(server, 1)).toEqual([503]);
    expect((await server.call("DELETE", "/sandbox/faults")).status).toBe(204);
  });

  it("refuses an operationId the spec does not have, naming the field", async () => {
    const answer = await server.call("POST", "/sandbox/faults", {
      body: { operationId: "createSecurePayments", kind: "status", status: 503 },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual(
      (specExample("SandboxProblemFaultUnknownOperation") as { errors: unknown[] }).errors,
    );
    const itself = await server.call("POST", "/sandbox/faults", {
      body: { operationId: "listSandboxFaults", kind: "drop" },
    });
    expect(problemErrors(itself, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/operationId",
    ]);
  });

  it("refuses members that do not fit the kind, and calls with share", async () => {
    const answer = await server.call("POST", "/sandbox/faults", {
      body: { kind: "latency", status: 503, retryAfterSeconds: 3, calls: 2, share: 0.5 },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/status", message: "goes only with kind status, not latency" },
      { path: "/body/latencyMs", message: "is required with kind latency" },
      { path: "/body/share", message: "cannot be given with calls: give one of them, or neither" },
    ]);
    const noStatus = await server.call("POST", "/sandbox/faults", {
      body: { kind: "status", retryAfterSeconds: 3 },
    });
    expect(problemErrors(noStatus, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/status", message: "is required with kind status" },
      { path: "/body/retryAfterSeconds", message: "goes only with status 429 or 503" },
    ]);
    expect((await server.call("GET", "/sandbox/faults")).body).toEqual({ faults: [] });
  });
});

describe("deleteSandboxFault and clearSandboxFaults", () => {
  it("deletes one fault, answers 404 for an unknown one, and clears them all", async () => {
    const first = await createFault(server, { operationId: "getSandboxClock", kind: "status", status: 503 });
    const second = await createFault(server, {
      operationId: "listCurrencies",
      kind: "latency",
      latencyMs: 5,
    });
    expect((await server.call("DELETE", `/sandbox/faults/${first.id}`)).status).toBe(204);
    expect(await statusesOf(server, 1)).toEqual([200]);
    const again = await server.call("DELETE", `/sandbox/faults/${first.id}`);
    expect(problemErrors(again, "/problems/not-found", 404)).toEqual([]);
    expect(again.body.detail).toBe(
      `No fault of this account has the id ${first.id}; GET /sandbox/faults lists them.`,
    );
    expect((await server.call("GET", "/sandbox/faults")).body).toEqual({ faults: [second] });
    expect((await server.call("DELETE", "/sandbox/faults")).status).toBe(204);
    expect((await server.call("GET", "/sandbox/faults")).body).toEqual({ faults: [] });
  });
});

describe("faults from the configuration file", () => {
  it("are in force from the start, listed with source config", async () => {
    const config = createDefaultConfig();
    (config.accounts[0] as (typeof config.accounts)[number]).faults = [
      { operationId: "getSandboxClock", kind: "status", status: 500, calls: 1 },
    ];
    const configured = await startTestServer({ config });
    try {
      const [fault] = (await configured.call("GET", "/sandbox/faults")).body.faults;
      expect(fault).toMatchObject({
        operationId: "getSandboxClock",
        status: 500,
        callsLeft: 1,
        source: "config",
      });
      expect(fault.createdAt).toBe("2026-04-12T10:00:00.000Z");
      expect(await statusesOf(configured, 2)).toEqual([500, 200]);
    } finally {
      await configured.close();
    }
  });

  it("are checked against the fault's schema, naming the field", () => {
    const config = createDefaultConfig();
    const account = { ...config.accounts[0], faults: [{ kind: "explode", share: 2 }] };
    expect(problemsOf({ ...config, accounts: [account] })).toEqual([
      'accounts[0].faults[0].kind: must be equal to one of the allowed values, got "explode"',
      "accounts[0].faults[0].share: must be <= 1, got 2",
    ]);
  });

  it("stop the start when a fault names no operation or its members do not fit, naming each field", () => {
    const config = createDefaultConfig();
    (config.accounts[0] as (typeof config.accounts)[number]).faults = [
      { operationId: "getSandboxClocks", kind: "drop" },
      { kind: "latency" },
    ];
    let thrown: unknown;
    try {
      createServer({ config });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems).toEqual([
      'accounts[0].faults[0].operationId: must be the operationId of an operation of the API other than the /sandbox/faults ones, such as createSecurePayment; got "getSandboxClocks"',
      "accounts[0].faults[1].latencyMs: is required with kind latency",
    ]);
  });
});
