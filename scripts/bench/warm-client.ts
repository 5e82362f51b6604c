import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type LoadRequest, timeRequest } from "./load.ts";

/**
 * Sends each request `times` times to a throwaway server of the benchmark's own that reads the body
 * and answers `{}`, each on a connection of its own as the first requests are timed: fetch's
 * connection machinery, its body handling and the timing code have run and been compiled before
 * a fresh server's first request is timed, so that its time is the server's and the
 * connection's, not this process's first use of them.
 */
export async function warmClient(requests: readonly LoadRequest[], times: number): Promise<void> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  sink.listen(0, "127.0.0.1");
  await once(sink, "listening");
  const { port } = sink.address() as AddressInfo;
  try {
    for (let round = 0; round < times; round++) {
      for (const request of requests) {
        await timeRequest(`http://127.0.0.1:${port}`, request, { newConnection: true });
      }
    }
  } finally {
    sink.closeAllConnections();
    sink.close();
  }
}
