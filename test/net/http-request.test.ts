import { once } from "node:events";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { requestText } from "../../src/net/http-request.ts";

const answer = (body: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`;

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/**
 * A server of raw sockets: `onRequest` gets each request's connection number (1 for the first
 * connection) and how many requests that connection has carried before, and acts on the socket.
 */
async function rawServer(onRequest: (socket: Socket, connection: number, earlier: number) => void) {
  let connections = 0;
  server = createServer((socket) => {
    const connection = ++connections;
    let earlier = 0;
    socket.on("data", () => onRequest(socket, connection, earlier++));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

const get = (url: URL) => requestText(url, { method: "GET", headers: {}, timeoutMs: 5_000 });

describe("requestText", () => {
  it("sends a request again on a new connection when a kept-alive one is reset as it is reused", async () => {
    const url = await rawServer((socket, connection, earlier) => {
      if (connection === 1 && earlier === 1) socket.resetAndDestroy();
      else socket.write(answer(`connection ${connection}`));
    });
    expect((await get(url)).text).toBe("connection 1");
    expect((await get(url)).text).toBe("connection 2");
  });

  it("does not send again when a new connection is reset", async () => {
    let requests = 0;
    const url = await rawServer((socket) => {
      requests++;
      socket.resetAndDestroy();
    });
    await expect(get(url)).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(requests).toBe(1);
  });
});
