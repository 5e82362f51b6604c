import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { inject } from "vitest";
import { startPrism } from "./prism.ts";
import { readRunRecord, startOncePerRun } from "./start-once-per-run.ts";

declare module "vitest" {
  export interface ProvidedContext {
    sharedPrismFolder: string;
  }
}

/** The shared mock: where it answers. It runs until the end of the run; no test file stops it. */
export interface SharedPrism {
  baseUrl: string;
}

interface PrismRecord {
  baseUrl: string;
  /** Its process group: the run's teardown stops every process of it. */
  pid: number;
}

const patienceMs = 60_000;
let shared: Promise<SharedPrism> | undefined;

/**
 * The Prism mock on generated/openapi.json that every test file of this run shares: Prism is
 * stateless, and its start (some seconds of CPU) is the slow part. The first file that asks starts
 * it, the others wait for it, and the run's global teardown stops it (stopSharedPrism).
 */
export function sharedPrism(): Promise<SharedPrism> {
  const folder = inject("sharedPrismFolder");
  shared ??= startOncePerRun<PrismRecord>(
    folder,
    "Prism",
    async () => {
      // Its output goes to a file: the pipes of the file that started it close when its worker ends.
      const prism = await startPrism({ logFile: path.join(folder, "prism.log") });
      return { baseUrl: prism.baseUrl, pid: prism.pid };
    },
    patienceMs,
  ).then(({ baseUrl }) => ({ baseUrl }));
  return shared;
}

/** Stops the shared Prism's process group, if one was started, and removes the run's folder. */
export async function stopSharedPrism(folder: string): Promise<void> {
  const started = readRunRecord<PrismRecord>(folder);
  if (started) {
    const { pid } = started;
    // Signal 0 only asks whether the group still exists.
    const signal = (name: NodeJS.Signals | 0) => {
      try {
        process.kill(-pid, name);
        return true;
      } catch {
        return false;
      }
    };
    signal("SIGTERM");
    for (let waited = 0; waited < 5_000 && signal(0); waited += 100) await delay(100);
    signal("SIGKILL");
  }
  rmSync(folder, { recursive: true, force: true });
}
