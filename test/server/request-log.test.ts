import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processIo } from "../../src/cli/cli-io.ts";
import { runServe } from "../../src/cli/serve/serve-command.ts";
import { apiKey, startTestServer, type TestServer } from "./helpers.ts";

/** Waits for the log line of the request just answered: morgan writes it once the answer is sent. */
async function nextLine(lines: string[], count: number): Promise<string> {
  for (let tries = 0; lines.length < count && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return lines[count - 1] ?? "(no line)";
}

describe.each(["text", "json"] as const)("the request log as %s", (format) => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ requestLog: { format, write: (line) => lines.push(line) } });
  });
  afterAll(() => server.close());

  const read = (line: string): Record<string, unknown> => {
    if (format === "json") return JSON.parse(line) as Record<string, unknown>;
    const [method, path, status, operationId, ms, unit] = line.trimEnd().split(" ");
    return { method, path, status: Number(status), operationId, ms: Number(ms), unit };
  };

  it("writes one line per request: method, path without the query, status, operationId, milliseconds", async () => {
    const answer = await server.call("GET", "/v1/currencies?network=base");
    expect(answer.status).toBe(200);
    const line = await nextLine(lines, 1);
    expect(line.endsWith("\n")).toBe(true);
    expect(line.trimEnd().includes("\n")).toBe(false);
    const entry = read(line);
    expect(entry).toMatchObject({
      method: "GET",
      path: "/v1/currencies",
      status: 200,
      operationId: "listCurrencies",
    });
    expect(entry.ms).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(entry.ms)).toBe(true);
    if (format === "json") {
      expect(entry.requestId).toBe(answer.headers.get("x-request-id"));
      expect(Number.isNaN(Date.parse(entry.time as string))).toBe(false);
    } else {
      expect(entry.unit).toBe("ms");
    }
  });

  it("logs refusals and unknown paths too, and a payment link's token by name only, never a key", async () => {
    const token = "tok_the-link-token-0123456789";
    await server.call("GET", `/v2/secure-payments/${token}`, { auth: "none" });
    await server.call("GET", "/no/such/path", { auth: "none" });
    // A misspelt path may hold the token: only its word-like segments are logged.
    await server.call("GET", `/v2/secure-paymnts/${token}`, { auth: "none" });
    const [refused, unknown, misspelt] = [
      await nextLine(lines, 2),
      await nextLine(lines, 3),
      await nextLine(lines, 4),
    ];
    expect(read(refused)).toMatchObject({
      method: "GET",
      path: "/v2/secure-payments/{token}",
      status: 401,
      operationId: "checkSecurePaymentToken",
    });
    expect(read(unknown)).toMatchObject({
      method: "GET",
      path: "/no/such/path",
      status: 404,
      operationId: format === "json" ? null : "-",
    });
    expect(read(misspelt)).toMatchObject({ method: "GET", path: "/v2/secure-paymnts/{…}", status: 404 });
    expect(lines.join("")).not.toContain(token);
    expect(lines.join("")).not.toContain(apiKey);
  });
});

describe("payreq serve's log options", () => {
  it.each([
    [["--log-format", "yaml"], '--log-format must be text or json, got "yaml"'],
    [["--quiet", "--log-format", "json"], "give either --quiet or --log-format, not both"],
  ])("refuses %j before starting", async (args, message) => {
    await expect(runServe(args, processIo, { command: "payreq serve" })).rejects.toThrow(message);
  });
});
