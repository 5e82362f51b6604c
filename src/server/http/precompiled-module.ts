import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { bundledSpecFile, loadBundledSpec, type SpecDocument } from "../../spec/spec-document.ts";

/** Each spec file's SHA-256, read and hashed once per process and file. */
const specFileHashes = new Map<string, string>();

/** Whether `npm run build` compiled its schemas from this very file: the file's SHA-256 is `specSha256`. */
function builtFromSpecFile(specFile: string, specSha256: string): boolean {
  let hash = specFileHashes.get(specFile);
  if (hash === undefined) {
    hash = createHash("sha256").update(readFileSync(specFile)).digest("hex");
    specFileHashes.set(specFile, hash);
  }
  return hash === specSha256;
}

/** A module of schemas `npm run build` compiled (scripts/precompiled-validators.ts writes them). */
export interface PrecompiledModule<T> {
  /** SHA-256 of the generated/openapi.json the schemas were compiled from. */
  specSha256: string;
  operationIds: string[];
  /** The validators by operationId, made with the formats of the Ajv that would otherwise compile them. */
  load(formats: object): Record<string, T>;
}

/** An operation's compiled schemas, made with its validator's formats; undefined when the build compiled none. */
export type PrecompiledSchemas<T> = (operationId: string) => ((formats: object) => T) | undefined;

/** Each module's validators, made once per process: every server of the process shares them. */
const loadedModules = new WeakMap<object, Record<string, unknown>>();

/**
 * The schemas of `module`, for the bundled spec only, and only while its file (`specFile`) is the
 * one they were compiled from; any other spec has its schemas compiled as the server needs them.
 */
export function precompiledSchemasOf<T>(
  module: PrecompiledModule<T>,
  spec: SpecDocument,
  specFile: string = bundledSpecFile,
): PrecompiledSchemas<T> | undefined {
  if (spec !== loadBundledSpec() || !builtFromSpecFile(specFile, module.specSha256)) return undefined;
  return (operationId) =>
    module.operationIds.includes(operationId)
      ? (formats) => {
          let loaded = loadedModules.get(module);
          if (!loaded) {
            loaded = module.load(formats);
            loadedModules.set(module, loaded);
          }
          return loaded[operationId] as T;
        }
      : undefined;
}
