import { UsageError } from "./cli-errors.ts";

/** A TCP port from `min` (0 asks the OS for a free one) to 65535. */
export function readPort(value: string, label: string, command: string, min: 0 | 1 = 0): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < min || port > 65535) {
    throw new UsageError(`${label} must be a whole number from ${min} to 65535, got "${value}"`, command);
  }
  return port;
}

/** An absolute http(s) URL without credentials, returned as given. */
export function readHttpUrl(value: string, flag: string, command: string, example: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new UsageError(`${flag} must be an http(s) URL such as ${example}, got "${value}"`, command);
  }
  if (url.username !== "" || url.password !== "") {
    throw new UsageError(`${flag} must not carry credentials in the URL`, command);
  }
  return value;
}
