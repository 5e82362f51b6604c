const stopSignals = ["SIGINT", "SIGTERM"] as const;
export type StopSignal = (typeof stopSignals)[number];

export interface StopSignalWatch {
  /** Resolves with the first SIGINT or SIGTERM. */
  received: Promise<StopSignal>;
  /** Removes the handlers; until then later signals are ignored, so that clean-up can finish. */
  dispose(): void;
}

/**
 * Watches for Ctrl+C and termination. npm and terminals often deliver SIGINT twice (to the
 * whole process group), so repeats are swallowed while the command cleans up.
 */
export function watchStopSignals(): StopSignalWatch {
  let resolveReceived: (signal: StopSignal) => void = () => {};
  const received = new Promise<StopSignal>((resolve) => {
    resolveReceived = resolve;
  });
  const handlers = stopSignals.map((signal) => {
    const handler = () => resolveReceived(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    received,
    dispose() {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
