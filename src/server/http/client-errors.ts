import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { buildProblem, type ProblemKind } from "../problems.ts";

/**
 * Connections whose request has its answer although its body has not arrived in full (a 413 sent
 * before the body is read): a timeout of that request only closes them.
 */
const answeredEarly = new WeakSet<Socket>();

/** Marks the connection of a request answered before its body arrived (see answeredEarly). */
export function markAnsweredEarly(socket: Socket): void {
  answeredEarly.add(socket);
}

/** What node:http's parser refused, in the words an answer gives. */
function describeClientError(code: string | undefined): { kind: ProblemKind; detail: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        kind: "headersTooLarge",
        detail: "The request line and headers together are larger than 16 KiB; send long values in the body.",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { kind: "requestTimeout", detail: "The request did not arrive in full in time." };
    default:
      return { kind: "malformedRequest", detail: "The request is not valid HTTP/1.1." };
  }
}

/**
 * Answers what node:http refuses before any route sees it (a request line and headers over its
 * 16 KiB, a request that is not HTTP, one that takes too long to arrive) with a Problem, as every
 * other error is answered, instead of node:http's status line with no body. The connection is
 * closed after it, as node:http closes it: what follows on it cannot be read. A peer that has
 * gone, or a connection whose answer is already on its way, is only closed, as node:http does.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // Nothing is written into an answer already on its way, or to a peer that has gone.
    if (
      error.code !== "ECONNRESET" &&
      socket.writable &&
      !inFlight?.headersSent &&
      !answeredEarly.has(socket)
    ) {
      const { kind, detail } = describeClientError(error.code);
      const requestId = randomUUID();
      const problem = buildProblem(kind, detail, { requestId });
      const body = JSON.stringify(problem);
      socket.write(
        `HTTP/1.1 ${problem.status} ${problem.error}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          "Content-Type: application/problem+json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          "Connection: close\r\n\r\n" +
          body,
      );
    }
    // As node:http does: a short answer is handed to the kernel as it is written.
    socket.destroy();
  });
}
