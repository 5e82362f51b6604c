import type { ErrorObject, ValidateFunction } from "ajv";
import { createSpecAjv } from "./spec-ajv.ts";
import type { SpecDocument } from "./spec-document.ts";

export interface SchemaValidator {
  /** Returns the ajv errors for `value`, or an empty list when it is valid. */
  errorsFor(schema: unknown, value: unknown): ErrorObject[];
}

/** Validates values against schemas of the spec (see createSpecAjv), every error reported. */
export function createSchemaValidator(document: SpecDocument): SchemaValidator {
  const specAjv = createSpecAjv(document, { allErrors: true });
  const cache = new Map<string, ValidateFunction>();
  return {
    errorsFor(schema, value) {
      const key = JSON.stringify(schema);
      let validate = cache.get(key);
      if (!validate) {
        validate = specAjv.compile(schema);
        cache.set(key, validate);
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}

export function describeErrors(errors: ErrorObject[]): string {
  return errors.map((error) => `${error.instancePath || "(root)"} ${error.message ?? ""}`).join("; ");
}
