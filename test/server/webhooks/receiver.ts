import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** How the receiver answers one delivery attempt. */
export type Reply =
  /** Answers with this status, after `afterMs` when given. */
  | { status: number; body?: string; headers?: Record<string, string>; afterMs?: number }
  /** Reads the request, then never answers. */
  | { hang: true }
  /** Reads the request, then resets the connection. */
  | { reset: true }
  /** Answers 200 and streams this many bytes, or until the sender drops the connection. */
  | { hugeBodyBytes: number };

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  url: string;
  /** Every request that arrived, in order. */
  received: ReceivedWebhook[];
  /** The delivery ids the receiver processed: answered 2xx for, once each (it dedupes on them). */
  processed: string[];
  /** How many bytes of a huge body were written before the sender dropped the connection. */
  hugeBodyBytesWritten: number;
  /**
   * The most requests that were open at once: in all, and by the URL they asked for (path and
   * query). A request counts from its arrival until the sender ends or drops its connection.
   * Connections are not what is counted: the server takes in every new connection waiting to be
   * accepted before it reads that older ones ended, and would count them together for a moment.
   */
  mostOpen: { total: number; byUrl: Record<string, number> };
  /** Sets how the next requests are answered; the last reply repeats. */
  reply(...replies: Reply[]): void;
  /** Resolves once `count` requests have arrived. */
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

function streamHugeBody(response: ServerResponse, total: number, written: (bytes: number) => void): void {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  response.writeHead(200, { "content-type": "text/plain", "content-length": String(total) });
  const pump = () => {
    while (sent < total && !response.destroyed) {
      sent += chunk.length;
      written(chunk.length);
      if (!response.write(chunk)) return response.once("drain", pump);
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

/** Calls `ended` once, when the other side ends the connection or it closes, whichever comes first. */
function onceEnded(socket: Socket, ended: () => void): void {
  if (socket.readableEnded || socket.destroyed) {
    ended();
    return;
  }
  let done = false;
  const end = () => {
    if (!done) ended();
    done = true;
  };
  socket.once("end", end);
  socket.once("close", end);
}

/** A real webhook receiver on 127.0.0.1 and a free port, answering as told. */
export async function startReceiver(...initial: Reply[]): Promise<Receiver> {
  let replies: Reply[] = initial.length > 0 ? initial : [{ status: 200, body: "ok" }];
  let answered = 0;
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: "",
    received: [],
    processed: [],
    hugeBodyBytesWritten: 0,
    mostOpen: { total: 0, byUrl: {} },
    reply(...next) {
      replies = next;
      answered = 0;
    },
    arrived(count) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
  let open = 0;
  const openByUrl = new Map<string, number>();
  const server = createServer((request, response) => {
    const url = request.url ?? "";
    const openToUrl = (openByUrl.get(url) ?? 0) + 1;
    openByUrl.set(url, openToUrl);
    receiver.mostOpen.total = Math.max(receiver.mostOpen.total, ++open);
    receiver.mostOpen.byUrl[url] = Math.max(receiver.mostOpen.byUrl[url] ?? 0, openToUrl);
    onceEnded(request.socket, () => {
      open--;
      openByUrl.set(url, (openByUrl.get(url) ?? 1) - 1);
    });
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = replies[Math.min(answered, replies.length - 1)] as Reply;
      answered++;
      if ("hang" in reply) return;
      if ("reset" in reply) return request.socket.resetAndDestroy();
      if ("hugeBodyBytes" in reply) {
        return streamHugeBody(response, reply.hugeBodyBytes, (bytes) => {
          receiver.hugeBodyBytesWritten += bytes;
        });
      }
      const answer = () => {
        if (reply.status >= 200 && reply.status < 300) {
          const id = String(request.headers["x-request-network-delivery"]);
          if (!receiver.processed.includes(id)) receiver.processed.push(id);
        }
        response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        response.end(reply.body ?? "");
      };
      if (reply.afterMs === undefined) answer();
      else setTimeout(answer, reply.afterMs);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}

/** Whether a received webhook carries the right signature for `secret`, checked with node:crypto. */
export function hasValidSignature(webhook: ReceivedWebhook, secret: string): boolean {
  const header = webhook.headers["x-request-network-signature"];
  if (typeof header !== "string" || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac("sha256", secret).update(webhook.body).digest();
  return timingSafeEqual(Buffer.from(header, "hex"), expected);
}
