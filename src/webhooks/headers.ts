/** The headers the service sends with every delivery (lowercase, as Node gives them). */
export const webhookHeaders = {
  signature: "x-request-network-signature",
  delivery: "x-request-network-delivery",
  retryCount: "x-request-network-retry-count",
  test: "x-request-network-test",
} as const;

/** Request headers as Node (`IncomingHttpHeaders`), a plain record or a fetch `Headers` give them. */
export type HeaderSource =
  | Readonly<Record<string, string | readonly string[] | number | undefined>>
  | { get(name: string): string | null };

/** A header's value as received: `undefined` when absent, an array when a framework kept repeats apart. */
export function readHeader(headers: HeaderSource, name: string): string | readonly string[] | undefined {
  // A header named "get" arrives as a string, so only a Headers-like object has a `get` method.
  if (typeof headers.get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, unknown>>;
  const key = Object.hasOwn(record, name)
    ? name
    : Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (typeof value === "number") return String(value);
  if (typeof value === "string" || Array.isArray(value)) return value;
  return undefined;
}

/** `x-request-network-retry-count` as a number, or `undefined` when absent or not a whole number. */
export function parseRetryCount(value: string | readonly string[] | undefined): number | undefined {
  return typeof value === "string" && /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** Whether `x-request-network-test` marks a test delivery. */
export function parseTestFlag(value: string | readonly string[] | undefined): boolean {
  return typeof value === "string" && value.trim().toLowerCase() === "true";
}
