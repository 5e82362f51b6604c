import type { RouteTable } from "./http/route-table.ts";

/**
 * Compiles the validator's schemas for every operation before the first real call: one request
 * per operation with an unknown query parameter, which the request validator refuses with 400
 * after compiling the route, and whose Problem answer compiles the route's response schemas.
 * Nothing reaches a handler, so no state changes. A 5xx means the spec cannot be served.
 */
export async function warmUpRoutes(
  baseUrl: string,
  routes: RouteTable,
  credential: { header: string; value: string },
): Promise<void> {
  const failures: string[] = [];
  for (const route of routes.routes) {
    const path = route.key.replace(/\{[^}]+\}/g, "warm-up");
    const response = await fetch(`${baseUrl}${path}?warmUp=1`, {
      method: route.method,
      headers: {
        [credential.header]: credential.value,
        ...(route.body ? { "content-type": "application/json" } : {}),
      },
      ...(route.body ? { body: "{}" } : {}),
    });
    await response.arrayBuffer();
    if (response.status >= 500) failures.push(`${route.method} ${route.key}: ${response.status}`);
  }
  if (failures.length > 0)
    throw new Error(`the spec's operations cannot be served:\n  ${failures.join("\n  ")}`);
}
