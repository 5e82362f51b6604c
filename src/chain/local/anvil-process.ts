import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/** An anvil node this process started; `stop()` ends it. */
export interface AnvilProcess {
  rpcUrl: string;
  /** The node's process id, for a supervisor that must end it should this process be killed. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The anvil binary of @foundry-rs/anvil: its platform package ships it, so nothing is downloaded
 * at run time. Throws with what to install when the package (or this platform's binary) is absent.
 */
export function resolveAnvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${platformPackage}/package.json`)), "bin", "anvil");
  } catch {
    throw new Error(
      `anvil is not installed for ${process.platform}-${process.arch}: install @foundry-rs/anvil@1.7.1 (it brings ${platformPackage}), or attach to a node of your own with --chain-rpc`,
    );
  }
}

/** Starts anvil on a free loopback port with `chainId`; resolves once it answers JSON-RPC. */
export function startAnvil(options: { chainId: number; binary?: string }): Promise<AnvilProcess> {
  const binary = options.binary ?? resolveAnvilBinary();
  const child = spawn(
    binary,
    ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(options.chainId), "--accounts", "10"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise<AnvilProcess>((resolve, reject) => {
    let output = "";
    const fail = (error: Error) => {
      child.kill("SIGKILL");
      reject(error);
    };
    child.once("error", (error) => fail(new Error(`anvil could not start: ${error.message}`)));
    child.once("exit", (code, signal) =>
      reject(new Error(`anvil exited before listening (${signal ?? `code ${code}`}): ${output.slice(-500)}`)),
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const listening = /Listening on (127\.0\.0\.1:\d+)/.exec(output);
      if (!listening) return;
      child.stdout?.off("data", read);
      child.removeAllListeners("exit");
      // Keep draining its output so that a full pipe never blocks it.
      child.stdout?.resume();
      child.stderr?.resume();
      // A node left behind by a crashed server would hold its port and memory: it ends with us.
      const endWithUs = () => child.kill("SIGKILL");
      process.once("exit", endWithUs);
      resolve({
        rpcUrl: `http://${listening[1]}`,
        pid: child.pid as number,
        stop: () => {
          process.off("exit", endWithUs);
          return stopChild(child);
        },
      });
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
