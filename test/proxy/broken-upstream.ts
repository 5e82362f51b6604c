import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the upstream received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface BrokenUpstream {
  baseUrl: string;
  received: ReceivedRequest[];
  stop(): Promise<void>;
}

/** A request id that breaks RequestId's pattern (`01` and 64 lowercase hex digits). */
export const badRequestId = "0xBAD";
export const securePaymentToken = "01KP0JDP70JXW11QHT4WHMJ7S4";

/**
 * An upstream that breaks the spec in known ways, each at one path:
 * - POST /v2/secure-payments: 201 whose `requestIds/0` breaks its pattern;
 * - GET /v1/currencies: 200 in text/plain, without X-Request-Id;
 * - GET /v2/secure-payments/{token}: 418, a status the operation does not document;
 * - GET /hang: no answer at all; GET /v1/currencies/slow: the start of an answer, never its end;
 * - anything else: a valid-looking 404 Problem.
 */
export async function startBrokenUpstream(): Promise<BrokenUpstream> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      if (request.url === "/hang") return;
      if (request.url === "/v1/currencies/slow") {
        response.writeHead(200, { "content-type": "application/json" });
        response.write("[");
        return;
      }
      if (request.method === "POST" && request.url === "/v2/secure-payments") {
        response.writeHead(201, {
          "content-type": "application/json",
          "x-request-id": "req-broken-201",
          "set-cookie": "trace=abc; Path=/",
        });
        response.end(
          JSON.stringify({
            requestIds: [badRequestId],
            securePaymentUrl: `https://pay.example.com/?token=${securePaymentToken}`,
            token: securePaymentToken,
          }),
        );
      } else if (request.url?.startsWith("/v1/currencies")) {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("USDC");
      } else if (request.url === `/v2/secure-payments/${securePaymentToken}`) {
        response.writeHead(418, { "content-type": "application/json", "x-request-id": "req-broken-418" });
        response.end("{}");
      } else {
        response.writeHead(404, {
          "content-type": "application/problem+json",
          "x-request-id": "req-broken-404",
        });
        response.end(
          JSON.stringify({
            type: "/problems/not-found",
            title: "Not found",
            status: 404,
            detail: "Nothing here.",
            statusCode: 404,
            error: "Not Found",
            message: "Nothing here.",
          }),
        );
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
