const networkErrors: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** Why a fetch threw, in words: fetch's own message ("fetch failed") hides the cause. */
export function describeFetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer in time";
  const cause = error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined;
  if (cause?.code) return `${networkErrors[cause.code] ?? cause.message} (${cause.code})`;
  return cause?.message ?? error.message;
}
