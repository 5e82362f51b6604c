import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import generated from "../../../generated/response-validators.cjs";
import { bundledSpecFile, loadBundledSpec, type SpecDocument } from "../../spec/spec-document.ts";
import type { PrecompiledOperation, ResponseValidators } from "./response-check.ts";

/** The build's compiled response schemas of an operation, if it compiled them. */
export type PrecompiledResponses = (operationId: string) => PrecompiledOperation | undefined;

/** Whether the schemas were compiled from this very file, read and hashed once per process and file. */
const compiledFromFile = new Map<string, boolean>();

function compiledFrom(specFile: string): boolean {
  let same = compiledFromFile.get(specFile);
  if (same === undefined) {
    same = createHash("sha256").update(readFileSync(specFile)).digest("hex") === generated.specSha256;
    compiledFromFile.set(specFile, same);
  }
  return same;
}

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
  if (spec !== loadBundledSpec() || !compiledFrom(specFile)) return undefined;
  return (operationId) =>
    generated.operationIds.includes(operationId)
      ? (formats) => {
          loaded ??= generated.load(formats);
          return loaded[operationId] as ResponseValidators;
        }
      : undefined;
}
