import type { components } from "../../../../generated/schema.d.ts";

/** The spec's schemas, as the generated types describe them. */
export type Schemas = components["schemas"];

export type { operations } from "../../../../generated/schema.d.ts";
