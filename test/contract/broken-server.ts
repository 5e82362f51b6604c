import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface BrokenServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A server that breaks the contract on purpose, to show that the suite fails it: every GET gets
 * 200 `{"ok":true}` without X-Request-Id, whatever the credentials or inputs; every other method
 * gets 500 in plain text.
 */
export async function startBrokenServer(): Promise<BrokenServer> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.method === "GET") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"ok":true}');
      } else {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end("boom");
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
