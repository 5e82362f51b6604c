import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey, problemErrors, startTestServer, type TestServer, usdcOnBase } from "./helpers.ts";

// JSON bodies as clients send them: with or without a charset, a byte order mark or compression.
// A compressed body is answered as the same body sent plain.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function post(body: Buffer | string, headers: Record<string, string>) {
  const answer = await fetch(`${server.url}/v2/secure-payments`, {
    method: "POST",
    headers: { "x-api-key": apiKey, ...headers },
    body,
  });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, body: JSON.parse(text), text };
}

const json = "application/json";
const valid = JSON.stringify({ requests: [usdcOnBase()] });

describe("reading a JSON body", () => {
  it("creates from a plain body, with a UTF-8 charset, with a byte order mark, and gzip-compressed", async () => {
    const bodies: [Buffer | string, Record<string, string>][] = [
      [valid, { "content-type": json }],
      [valid, { "content-type": "application/json; charset=UTF-8" }],
      [`\uFEFF${valid}`, { "content-type": json }],
      [gzipSync(valid), { "content-type": json, "content-encoding": "gzip" }],
    ];
    for (const [body, headers] of bodies) {
      const answer = await post(body, headers);
      expect(answer.status).toBe(201);
      expect(answer.body.requestIds).toHaveLength(1);
    }
  });

  it("answers a malformed, a too deep and an empty body alike, compressed or not", async () => {
    const bodies = ['{"requests": [', `${"[".repeat(65)}${"]".repeat(65)}`, ""];
    for (const body of bodies) {
      const plain = await post(body, { "content-type": json });
      const compressed = await post(gzipSync(body), { "content-type": json, "content-encoding": "gzip" });
      expect(plain.status).toBe(400);
      expect(compressed.body.type).toBe(plain.body.type);
      expect(compressed.body.detail).toBe(plain.body.detail);
      expect(compressed.body.errors).toEqual(plain.body.errors);
    }
    // An empty body is no body: the operation requires one.
    const empty = await post("", { "content-type": json });
    expect(problemErrors(empty, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "is required: send a JSON body with Content-Type application/json" },
    ]);
  });

  it("refuses another charset with 415, naming it", async () => {
    const answer = await post(valid, { "content-type": "application/json; charset=latin1" });
    problemErrors(answer, "/problems/unsupported-media-type", 415);
    expect(answer.body.detail).toBe('Send the body as UTF-8 JSON: unsupported charset "LATIN1".');
  });

  it("reads a UTF-16 body by its characters: a character whose bytes look like JSON's brackets and quotes is text", async () => {
    // U+225B is 5B 22 in UTF-16LE: in the bytes, "[" and '"' over and over.
    const withBrackets = JSON.stringify({ requests: [{ ...usdcOnBase(), note: "\u225B".repeat(140) }] });
    const created = await post(Buffer.from(withBrackets, "utf16le"), {
      "content-type": "application/json; charset=utf-16le",
    });
    expect(created.status).toBe(201);
    expect(created.body.requestIds).toHaveLength(1);
    const tooMany = `{"requests":[${new Array(10_000).fill("{}").join(",")}]}`;
    const refused = await post(Buffer.from(tooMany, "utf16le"), {
      "content-type": "application/json; charset=utf-16le",
    });
    expect(problemErrors(refused, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests",
        message:
          "has 10000 items: a body may hold at most 10000 objects, arrays and members, and this one holds 10003",
      },
    ]);
  });

  it("answers a chunked body over 1 MiB with 413 once it has read past the limit", async () => {
    const answer = await new Promise<{ status: number; body: { type: string; detail: string } }>(
      (resolve, reject) => {
        const outgoing = request(
          `${server.url}/v2/secure-payments`,
          { method: "POST", headers: { "x-api-key": apiKey, "content-type": json } },
          (incoming) => {
            let text = "";
            incoming.setEncoding("utf8");
            incoming.on("data", (chunk: string) => {
              text += chunk;
            });
            incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        outgoing.on("error", reject);
        // No Content-Length: the body comes in chunks, 64 KiB at a time, 1.25 MiB in all.
        const chunk = "x".repeat(65_536);
        for (let sent = 0; sent < 20; sent++) outgoing.write(chunk);
        outgoing.end();
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.body.type).toMatch(/\/problems\/payload-too-large$/);
    expect(answer.body.detail).toBe("The body is larger than the limit; the limit is 1048576 bytes (1 MiB).");
  });
});
