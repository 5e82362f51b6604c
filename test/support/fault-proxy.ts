import { connect, createServer, type Socket } from "node:net";

/**
 * `forward`: bytes pass both ways. `refuse`: every connection, open or new, is reset, as by a
 * server that stopped. `stall`: connections are accepted and nothing passes either way, as with
 * a server that is paused (SIGSTOP) or a network that drops everything; what was held passes
 * once the proxy forwards again.
 */
export type FaultMode = "forward" | "refuse" | "stall";

export interface FaultProxy {
  port: number;
  /** `url` (a `postgres://` URL of the target) through the proxy. */
  through(url: string): string;
  set(mode: FaultMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  /** Bytes from the client while stalled, or before the upstream connection is open. */
  held: Buffer[];
  /** Bytes from the upstream while stalled. */
  heldBack: Buffer[];
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target`, which a test switches between forwarding,
 * refusing and stalling: a database that stops or hangs for one test's server alone, while the
 * run's shared PostgreSQL serves the other tests as usual.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = "forward";
  const pairs = new Set<Pair>();

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    pair.upstream?.destroy();
  };
  const flush = (pair: Pair) => {
    if (!pair.upstream) {
      openUpstream(pair);
      return;
    }
    for (const chunk of pair.held.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.heldBack.splice(0)) pair.client.write(chunk);
  };
  const openUpstream = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on("connect", () => {
      if (mode === "forward") flush(pair);
    });
    upstream.on("data", (chunk) => {
      if (mode === "forward") pair.client.write(chunk);
      else pair.heldBack.push(chunk);
    });
    upstream.on("error", () => drop(pair));
    upstream.on("close", () => drop(pair));
  };

  const server = createServer((client) => {
    if (mode === "refuse") {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: undefined, held: [], heldBack: [] };
    pairs.add(pair);
    client.on("data", (chunk) => {
      if (mode === "forward" && pair.upstream?.readyState === "open") pair.upstream.write(chunk);
      else pair.held.push(chunk);
    });
    client.on("error", () => drop(pair));
    client.on("close", () => drop(pair));
    if (mode === "forward") openUpstream(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.toString();
    },
    set(next) {
      mode = next;
      for (const pair of [...pairs]) {
        if (next === "refuse") drop(pair);
        else if (next === "forward") flush(pair);
      }
    },
    async close() {
      for (const pair of [...pairs]) drop(pair);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
