import { readPathOperations } from "./src/spec/operations.ts";
import { createSchemaValidator, describeErrors } from "./src/spec/schema-validator.ts";
import { loadBundledSpec } from "./src/spec/spec-document.ts";
import { readPublishedExamples, unnamedTemplate } from "./test/support/published-examples.ts";

const spec = loadBundledSpec();
const v = createSchemaValidator(spec);
const given = new Map(
  readPathOperations(spec)
    .filter((o) => !o.key.startsWith("/sandbox"))
    .map((o) => [unnamedTemplate(o.method, o.key), o]),
);
for (const ex of readPublishedExamples(new Set(given.keys()))) {
  const op = given.get(ex.operation)!;
  let schema: unknown;
  if (ex.kind === "request") schema = op.body?.schema;
  else schema = op.responses[String(ex.kind)]?.content[ex.mediaType]?.schema;
  if (schema === undefined) {
    console.log("NO SCHEMA", ex.document, ex.operation, ex.kind, ex.mediaType, ex.name);
    continue;
  }
  const errs = v.errorsFor(schema, ex.value);
  if (errs.length)
    console.log(
      "FAIL",
      ex.document.slice(16, 24),
      ex.operation,
      ex.kind,
      ex.name,
      describeErrors(errs).slice(0, 300),
    );
}
