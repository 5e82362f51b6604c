import generated from "../../../generated/response-validators.cjs";
import { bundledSpecFile, loadBundledSpec, type SpecDocument } from "../../spec/spec-document.ts";
import { builtFromSpecFile } from "./built-from-spec.ts";
import type { PrecompiledOperation, ResponseValidators } from "./response-check.ts";

/** The build's compiled response schemas of an operation, if it compiled them. */
export type PrecompiledResponses = (operationId: string) => PrecompiledOperation | undefined;

/** The module's validators, made once per process: every server of the process shares them. */
let loaded: Record<string, ResponseValidators> | undefined;

/**
 * The response schemas `npm run build` compiled (scripts/build-response-validators.ts): those of
 * the operations the server warms up before it answers, whose compiling was a fifth of the
 * compiled `payreq serve`'s start. For the bundled spec only, and only while its file (`specFile`)
 * is the one they were compiled from; any other spec has its schemas compiled as the server needs them.
 */
export function precompiledResponsesFor(
  spec: SpecDocument,
  specFile: string = bundledSpecFile,
): PrecompiledResponses | undefined {
  if (spec !== loadBundledSpec() || !builtFromSpecFile(specFile, generated.specSha256)) return undefined;
  return (operationId) =>
    generated.operationIds.includes(operationId)
      ? (formats) => {
          loaded ??= generated.load(formats);
          return loaded[operationId] as ResponseValidators;
        }
      : undefined;
}
