import { Agent, request } from "node:http";
import type { RouteTable } from "./http/route-table.ts";

/** Sends one request and resolves with its status once the answer is read. */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: Agent,
) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode ?? 0));
      answer.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * Compiles the validator's schemas for every operation before the first real call: one request
 * per operation with an unknown query parameter, which the request validator refuses with 400
 * after compiling the route, and whose Problem answer compiles the route's response schemas.
 * Nothing reaches a handler, so no state changes. A 5xx means the spec cannot be served.
 * node:http rather than fetch: loading fetch would cost the start-up more than the requests.
 */
export async function warmUpRoutes(
  baseUrl: string,
  routes: RouteTable,
  credential: { header: string; value: string },
): Promise<void> {
  const failures: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const route of routes.routes) {
      const path = route.key.replace(/\{[^}]+\}/g, "warm-up");
      const headers = {
        [credential.header]: credential.value,
        ...(route.body ? { "content-type": route.body.mediaType } : {}),
      };
      const status = await send(
        new URL(`${path}?warmUp=1`, baseUrl),
        route.method,
        headers,
        route.body ? "{}" : undefined,
        agent,
      );
      if (status >= 500) failures.push(`${route.method} ${route.key}: ${status}`);
    }
  } finally {
    agent.destroy();
  }
  if (failures.length > 0)
    throw new Error(`the spec's operations cannot be served:\n  ${failures.join("\n  ")}`);
}
