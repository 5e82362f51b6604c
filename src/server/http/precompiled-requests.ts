import generated from "../../../generated/request-validators.cjs";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { type PrecompiledSchemas, precompiledSchemasOf } from "./precompiled-module.ts";
import type { RequestSchemas } from "./request-validator-parts.ts";

/** The build's compiled request schemas of an operation, made with its validator's formats; undefined when it compiled none. */
export type PrecompiledRequests = PrecompiledSchemas<RequestSchemas>;

/**
 * The request schemas `npm run build` compiled (scripts/build-request-validators.ts): those of the
 * operations the server warms up before it answers, without strictBodies, which compile otherwise
 * while the warm-up holds the first request. For the bundled spec only, and only while its file
 * (`specFile`) is the one they were compiled from.
 */
export function precompiledRequestsFor(
  spec: SpecDocument,
  specFile?: string,
): PrecompiledRequests | undefined {
  return precompiledSchemasOf<RequestSchemas>(generated, spec, specFile);
}
