import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

/**
 * Starts a service once for the whole test run, whichever worker asks first: the first caller
 * claims `folder` (a folder the run's global setup made), runs `start` and records what it
 * returns there as JSON; every other caller, in any worker, waits for that record (or for the
 * failure the first one recorded) and reads it. `name` is what the errors call the service.
 */
export async function startOncePerRun<T>(
  folder: string,
  name: string,
  start: () => Promise<T>,
  patienceMs: number,
): Promise<T> {
  const record = path.join(folder, "service.json");
  const failure = path.join(folder, "failure.txt");
  let claimed = true;
  try {
    mkdirSync(path.join(folder, "starting"));
  } catch {
    claimed = false;
  }
  if (claimed) {
    try {
      writeFileSync(record, JSON.stringify(await start()));
    } catch (error) {
      writeFileSync(failure, String(error));
      throw error;
    }
  }
  for (let waited = 0; !existsSync(record); waited += 100) {
    if (existsSync(failure))
      throw new Error(`the shared ${name} did not start: ${readFileSync(failure, "utf8")}`);
    if (waited > patienceMs)
      throw new Error(`the shared ${name} did not start within ${patienceMs / 1000} s`);
    await delay(100);
  }
  return JSON.parse(readFileSync(record, "utf8")) as T;
}

/** What startOncePerRun recorded in `folder`, if the service was started. */
export function readRunRecord<T>(folder: string): T | undefined {
  const record = path.join(folder, "service.json");
  return existsSync(record) ? (JSON.parse(readFileSync(record, "utf8")) as T) : undefined;
}
