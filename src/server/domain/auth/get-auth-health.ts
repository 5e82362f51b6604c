import type { StatelessContext } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";

export function getAuthHealth(_ctx: StatelessContext): Schemas["AuthHealth"] {
  return { status: "ok" };
}
