/** Node's network error codes in words: fetch and sockets only give "fetch failed" or the code. */
const networkErrorWords: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the peer",
  EPIPE: "connection closed by the peer",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** A network error as "words (CODE)", or its own message with the code when the code is not listed. */
export function describeNetworkError(error: NodeJS.ErrnoException): string {
  if (!error.code) return error.message;
  const words = Object.hasOwn(networkErrorWords, error.code) ? networkErrorWords[error.code] : undefined;
  return `${words ?? error.message} (${error.code})`;
}
