import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { repoRoot } from "../../scripts/run-tool.ts";
import { isObject, type JsonObject } from "../../src/spec/spec-document.ts";

/** The service's published OpenAPI documents, beside the repository in shared/reference. */
export const referenceFolder = path.join(repoRoot, "..", "shared", "reference");
/** Why the tests reading the published documents cannot run here; undefined when they can. */
export const referenceMissingReason: string | undefined = existsSync(referenceFolder)
  ? undefined
  : `the service's published documents are not beside this checkout (${referenceFolder})`;
export const publishedDocuments = [
  "upstream-openapi.v2.json",
  "upstream-openapi.v0.11.1.json",
  "upstream-openapi.2025-09.yaml",
] as const;

/** One example the service publishes: a request body or an answer of one operation. */
export interface PublishedExample {
  document: string;
  /** `GET /v2/request/{}/pay`: the method and the path with its parameters unnamed. */
  operation: string;
  /** `request` for a request body, else the status of the answer. */
  kind: "request" | number;
  mediaType: string;
  name: string;
  value: unknown;
}

/** A path template with its parameter names dropped, so that templates of two documents compare. */
export function unnamedTemplate(method: string, template: string): string {
  return `${method.toUpperCase()} ${template.replace(/\{[^}]+\}/g, "{}")}`;
}

function loadDocument(file: string): JsonObject {
  const text = readFileSync(path.join(referenceFolder, file), "utf8");
  return (file.endsWith(".json") ? JSON.parse(text) : parseYaml(text)) as JsonObject;
}

/** The `example` and named `examples` of a media type object, and an `example` on its schema. */
function mediaExamples(mediaType: JsonObject): { name: string; value: unknown }[] {
  const found: { name: string; value: unknown }[] = [];
  if ("example" in mediaType) found.push({ name: "example", value: mediaType.example });
  if (isObject(mediaType.examples)) {
    for (const [name, example] of Object.entries(mediaType.examples)) {
      if (isObject(example) && "value" in example) found.push({ name, value: example.value });
    }
  }
  if (isObject(mediaType.schema) && "example" in mediaType.schema) {
    found.push({ name: "schema example", value: mediaType.schema.example });
  }
  return found;
}

/** Every request-body and answer example the documents publish for the operations named. */
export function readPublishedExamples(
  operations: Set<string>,
  documents: readonly string[] = publishedDocuments,
): PublishedExample[] {
  const examples: PublishedExample[] = [];
  for (const document of documents) {
    const paths = loadDocument(document).paths as Record<string, JsonObject>;
    for (const [template, item] of Object.entries(paths)) {
      for (const [method, raw] of Object.entries(item)) {
        const operation = unnamedTemplate(method, template);
        if (!operations.has(operation) || !isObject(raw)) continue;
        const requestContent = isObject(raw.requestBody) ? raw.requestBody.content : undefined;
        for (const [mediaType, media] of Object.entries(isObject(requestContent) ? requestContent : {})) {
          for (const { name, value } of mediaExamples(media as JsonObject)) {
            examples.push({ document, operation, kind: "request", mediaType, name, value });
          }
        }
        for (const [status, response] of Object.entries((raw.responses ?? {}) as JsonObject)) {
          const content = isObject(response) ? response.content : undefined;
          for (const [mediaType, media] of Object.entries(isObject(content) ? content : {})) {
            for (const { name, value } of mediaExamples(media as JsonObject)) {
              examples.push({ document, operation, kind: Number(status), mediaType, name, value });
            }
          }
        }
      }
    }
  }
  return examples;
}
