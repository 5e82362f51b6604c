/** Runs work later. The delivery worker waits between attempts through it, so tests can stand in for time. */
export interface WebhookScheduler {
  /** Runs `task` after about `delayMs`; the returned function cancels it if it has not run yet. */
  schedule(delayMs: number, task: () => void): () => void;
}

/** The real thing: a timer per task. */
export const timerScheduler: WebhookScheduler = {
  schedule(delayMs, task) {
    const timer = setTimeout(task, delayMs);
    return () => clearTimeout(timer);
  },
};
