import type { WebhookAnswer } from "./receive.ts";

/** What sending an answer uses of a response: Node's `ServerResponse` and Express's `Response` fit. */
export interface WebhookHttpResponse {
  statusCode: number;
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  setHeader(name: string, value: string | number): unknown;
  end(chunk: string): unknown;
  destroy(): unknown;
}

/** Writes an answer as JSON with its status and headers, unless the response is already sent or gone. */
export function sendAnswer(res: WebhookHttpResponse, answer: WebhookAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(answer.body);
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader("content-length", Buffer.byteLength(body));
  res.end(body);
}
