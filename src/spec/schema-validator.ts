import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";
import { formatOverrides } from "./format-overrides.ts";
import { isObject, type SpecDocument } from "./spec-document.ts";

const specId = "https://payreq.local/openapi.json";
// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const formatsModule = addFormatsModule as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;

/** Points the document's local `#/...` references at the registered spec so a detached schema compiles. */
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

export interface SchemaValidator {
  /** Returns the ajv errors for `value`, or an empty list when it is valid. */
  errorsFor(schema: unknown, value: unknown): ErrorObject[];
}

/**
 * Validates values against schemas of the spec with ajv in JSON Schema 2020-12 mode, formats
 * asserted. Most schemas check a handful of answers: their code is generated without Ajv's
 * optimising pass, which only drops names the code does not need and costs more than it saves.
 */
export function createSchemaValidator(document: SpecDocument): SchemaValidator {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    code: { optimize: false },
  });
  addFormats(ajv);
  for (const [name, format] of Object.entries(formatOverrides)) ajv.addFormat(name, format);
  ajv.addSchema({ $id: specId, components: document.components ?? {} } as object);
  const cache = new Map<string, ValidateFunction>();
  return {
    errorsFor(schema, value) {
      const key = JSON.stringify(schema);
      let validate = cache.get(key);
      if (!validate) {
        validate = ajv.compile(anchorReferences(schema) as object);
        cache.set(key, validate);
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}

export function describeErrors(errors: ErrorObject[]): string {
  return errors.map((error) => `${error.instancePath || "(root)"} ${error.message ?? ""}`).join("; ");
}
