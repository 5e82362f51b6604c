import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import { addFormats } from "./ajv-formats.ts";
import { dateTimeFormat } from "./date-time-format.ts";
import { isObject, type SpecDocument } from "./spec-document.ts";

/** The `$id` the spec's components are registered under in every Ajv made here. */
const specId = "https://payreq.local/openapi.json";

/** Points the document's local `#/...` references at the registered spec, so that a schema taken out of it compiles. */
function anchorReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchorReferences);
  if (!isObject(node)) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] =
      key === "$ref" && typeof value === "string" && value.startsWith("#")
        ? specId + value
        : anchorReferences(value);
  }
  return copy;
}

/** An Ajv for the schemas of one OpenAPI document, each compiled from where it stands in it. */
export interface SpecAjv {
  readonly ajv: Ajv2020;
  /**
   * Compiles a schema node of the document (a `$ref` into `components`, or an inline schema):
   * the schemas it references are compiled once per SpecAjv, whoever references them.
   */
  compile<T = unknown>(schema: unknown): ValidateFunction<T>;
}

/**
 * Ajv in JSON Schema 2020-12 mode (the dialect the spec declares), formats asserted with
 * ajv-formats' full formats, and the spec's components registered so that its references
 * resolve. `options` add to Ajv's defaults (`allErrors`, `coerceTypes`, `useDefaults`, ...).
 * `strict: false`: the spec's schemas carry OpenAPI's own keywords (`example`, `discriminator`).
 * `validateSchema: false`: the spec's schemas are checked where the spec is built and linted
 * (`npm run lint`, test/spec), not again by every Ajv made here, each of which would compile the
 * JSON Schema meta-schema first.
 */
export function createSpecAjv(document: SpecDocument, options: Options = {}): SpecAjv {
  const ajv = new Ajv2020({ strict: false, validateFormats: true, validateSchema: false, ...options });
  addFormats(ajv);
  ajv.addFormat("date-time", dateTimeFormat);
  // Only the schemas: the components' examples and responses are no schema's target, and Ajv walks all it is given.
  const schemas = isObject(document.components) ? document.components.schemas : undefined;
  ajv.addSchema({ $id: specId, components: { schemas: schemas ?? {} } } as object);
  return {
    ajv,
    compile: <T>(schema: unknown) => ajv.compile<T>(anchorReferences(schema) as object),
  };
}
