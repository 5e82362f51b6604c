import { connect } from "node:net";

const retryEveryMs = 50;

/**
 * Resolves once something accepts TCP connections on host:port, trying again every 50 ms; rejects
 * with the reason `given up` gives, as soon as it settles first (the process that should listen
 * has exited, say).
 */
export function waitUntilAccepting(host: string, port: number, givenUp: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    givenUp.then(
      (reason) => {
        done = true;
        reject(reason instanceof Error ? reason : new Error(String(reason)));
      },
      (error) => {
        done = true;
        reject(error);
      },
    );
    const attempt = () => {
      if (done) return;
      const socket = connect({ host, port });
      socket.once("connect", () => {
        socket.destroy();
        if (done) return;
        done = true;
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        setTimeout(attempt, retryEveryMs);
      });
    };
    attempt();
  });
}
