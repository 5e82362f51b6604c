import generated from "../../../generated/response-validators.cjs";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { type PrecompiledSchemas, precompiledSchemasOf } from "./precompiled-module.ts";
import type { ResponseValidators } from "./response-check.ts";

/** The build's compiled response schemas of an operation, if it compiled them. */
export type PrecompiledResponses = PrecompiledSchemas<ResponseValidators>;

/**
 * The response schemas `npm run build` compiled (scripts/build-response-validators.ts): those of
 * the operations the server warms up before it answers, whose compiling was a fifth of the
 * compiled `payreq serve`'s start. For the bundled spec only, and only while its file (`specFile`)
 * is the one they were compiled from.
 */
export function precompiledResponsesFor(
  spec: SpecDocument,
  specFile?: string,
): PrecompiledResponses | undefined {
  return precompiledSchemasOf<ResponseValidators>(generated, spec, specFile);
}
