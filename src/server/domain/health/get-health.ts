import type { Schemas } from "../shared/wire-types.ts";

/** The health check: the process answers, so it is up. Reads nothing, and takes no credential. */
export function getHealth(): Schemas["HealthStatus"] {
  return { status: "ok" };
}
