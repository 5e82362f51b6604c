import { describeFetchFailure, isFetchTimeout } from "../../net/describe-fetch-failure.ts";

/** What the integrator's endpoint made of a forwarded delivery. */
export type ForwardOutcome =
  | { reached: true; status: number; body: Uint8Array; contentType: string | undefined }
  | { reached: false; status: 502 | 504; reason: string };

/** The most of an endpoint's answer passed back to the service: enough for any error text. */
const answerLimitBytes = 64 * 1024;

/** The request headers a forwarded delivery keeps: the body's type and every delivery header. */
function isForwardedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "content-type" || lower.startsWith("x-request-network-");
}

/**
 * POSTs the delivery's exact bytes with its own content type and x-request-network-* headers (as
 * received, in order) to the integrator's endpoint, without following redirects, as the service
 * does. An endpoint that cannot be reached is a 502, one that does not answer in time a 504.
 */
export async function forwardDelivery(
  target: string,
  rawBody: Uint8Array,
  rawHeaders: readonly string[],
  timeoutMs: number,
): Promise<ForwardOutcome> {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    if (isForwardedHeader(name)) headers.append(name, rawHeaders[index + 1] as string);
  }
  try {
    const response = await fetch(target, {
      method: "POST",
      headers,
      body: rawBody,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await readLimited(response);
    return {
      reached: true,
      status: response.status,
      body,
      contentType: response.headers.get("content-type") ?? undefined,
    };
  } catch (error) {
    return {
      reached: false,
      status: isFetchTimeout(error) ? 504 : 502,
      reason: describeFetchFailure(error, timeoutMs),
    };
  }
}

async function readLimited(response: Response): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response.body) {
    const room = answerLimitBytes - received;
    chunks.push(chunk.subarray(0, room));
    received += Math.min(chunk.length, room);
    if (received >= answerLimitBytes) break;
  }
  return Buffer.concat(chunks);
}
