import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import {
  escapePointerToken,
  isObject,
  resolveNode,
  type SpecDocument,
} from "../../src/spec/spec-document.ts";

export interface ExampleViolation {
  location: string;
  message: string;
}

export interface ExampleReport {
  /** How many example values were validated. */
  checked: number;
  /** Names of `components/examples` entries that were validated at least once. */
  componentExamplesChecked: Set<string>;
  violations: ExampleViolation[];
}

/**
 * Validates every example of the document against the schema it illustrates: JSON Schema
 * `examples` arrays, `example` on parameters, headers and media types, and named examples
 * (inline or referenced from components/examples).
 */
export function checkExamples(document: SpecDocument): ExampleReport {
  const validator = createSchemaValidator(document);
  const report: ExampleReport = { checked: 0, componentExamplesChecked: new Set(), violations: [] };

  const check = (location: string, schema: unknown, value: unknown) => {
    report.checked++;
    const errors = validator.errorsFor(schema, value);
    if (errors.length > 0) report.violations.push({ location, message: describeErrors(errors) });
  };

  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      for (const [index, child] of node.entries()) visit(child, `${pointer}/${index}`);
      return;
    }
    if (!isObject(node)) return;

    // A JSON Schema: `examples` is an array of instances of the schema itself.
    if (Array.isArray(node.examples) && !("schema" in node)) {
      for (const [index, value] of node.examples.entries())
        check(`${pointer}/examples/${index}`, node, value);
    }
    // A parameter, header or media type: its examples illustrate its `schema`.
    if ("schema" in node) {
      if ("example" in node) check(`${pointer}/example`, node.schema, node.example);
      if (isObject(node.examples)) {
        for (const [name, entry] of Object.entries(node.examples)) {
          if (isObject(entry) && typeof entry.$ref === "string") {
            report.componentExamplesChecked.add(entry.$ref.replace("#/components/examples/", ""));
          }
          const example = resolveNode(document, entry);
          const location = `${pointer}/examples/${escapePointerToken(name)}`;
          if (!isObject(example) || !("value" in example)) {
            report.violations.push({ location, message: "a named example needs a `value`" });
            continue;
          }
          check(location, node.schema, example.value);
        }
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "examples" || key === "example") continue;
      visit(child, `${pointer}/${escapePointerToken(key)}`);
    }
  };

  visit(document, "");
  return report;
}
