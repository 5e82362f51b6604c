import generated from "../../../generated/request-validators.cjs";
import { bundledSpecFile, loadBundledSpec, type SpecDocument } from "../../spec/spec-document.ts";
import { builtFromSpecFile } from "./built-from-spec.ts";
import type { RequestSchemas } from "./request-validator-parts.ts";

/** The build's compiled request schemas of an operation, made with its validator's formats; undefined when it compiled none. */
export type PrecompiledRequests = (operationId: string) => ((formats: object) => RequestSchemas) | undefined;

/** The module's validators, made once per process: every server of the process shares them. */
let loaded: ReturnType<typeof generated.load> | undefined;

/**
 * The request schemas `npm run build` compiled (scripts/build-request-validators.ts): those of the
 * operations the server warms up before it answers, without strictBodies, which compile otherwise
 * while the warm-up holds the first request. For the bundled spec only, and only while its file
 * (`specFile`) is the one they were compiled from.
 */
export function precompiledRequestsFor(
  spec: SpecDocument,
  specFile: string = bundledSpecFile,
): PrecompiledRequests | undefined {
  if (spec !== loadBundledSpec() || !builtFromSpecFile(specFile, generated.specSha256)) return undefined;
  return (operationId) =>
    generated.operationIds.includes(operationId)
      ? (formats) => {
          loaded ??= generated.load(formats);
          return loaded[operationId] as RequestSchemas;
        }
      : undefined;
}
