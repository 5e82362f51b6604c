import type { FetchLike } from "../../src/index.ts";

export { specExample } from "../../src/spec/spec-document.ts";

/** One scripted answer: a response, an error to throw (a network failure), or a function of the request. */
export type StubAnswer = Response | Error | ((request: Request) => Response | Promise<Response>);

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as text, read from the request the stub received; "" when there is none. */
  body: string;
}

export interface FetchStub {
  fetch: FetchLike;
  /** Every request received, in order. */
  sent: SentRequest[];
}

/**
 * A fetch that records each request and answers with the scripted answers in order; it fails the
 * test when asked more often than scripted.
 */
export function stubFetch(...answers: StubAnswer[]): FetchStub {
  const sent: SentRequest[] = [];
  const fetch: FetchLike = async (request) => {
    sent.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.text() : "",
    });
    const answer = answers[sent.length - 1];
    if (answer === undefined)
      throw new Error(`unexpected request #${sent.length}: ${request.method} ${request.url}`);
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(request) : answer;
  };
  return { fetch, sent };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function problemResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, body, { "content-type": "application/problem+json", ...headers });
}

export const baseUrl = "https://api.payreq.test";
