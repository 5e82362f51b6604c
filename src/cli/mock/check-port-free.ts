import { once } from "node:events";
import { createServer } from "node:net";

/**
 * Rejects with listen()'s error when host:port cannot be listened on, so that the mock says so
 * before Prism starts (and before anything already on the port could pass for a ready Prism).
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  const probe = createServer();
  probe.listen(port, host);
  try {
    await once(probe, "listening");
  } finally {
    probe.close();
  }
}
