import type { WebhookScheduler } from "../../../src/server/webhook-delivery/scheduler.ts";

/** A scheduler that holds every task until the test runs them. */
export function heldScheduler(): { scheduler: WebhookScheduler; runAll(): void; held(): number } {
  const tasks = new Set<() => void>();
  return {
    scheduler: {
      schedule(_delayMs, task) {
        tasks.add(task);
        return () => tasks.delete(task);
      },
    },
    runAll() {
      for (const task of [...tasks]) {
        tasks.delete(task);
        task();
      }
    },
    held: () => tasks.size,
  };
}
