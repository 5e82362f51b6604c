// Part of `npm run build`: the response schemas of the operations the server warms up before it
// answers, compiled by Ajv here instead of at every start (src/server/http/precompiled-responses.ts).
import { _ } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { operationValidationInputs } from "../src/server/http/operation-validation-inputs.ts";
import { responseValidatorFor } from "../src/server/http/response-check.ts";
import { literal, readWarmedUpOperations, writeValidatorModule } from "./precompiled-validators.ts";

const declaration = `import type { ErrorObject } from "ajv";

/** A compiled response schema: it checks \`{ response: body }\`; the errors of the last call are in \`errors\`. */
type ResponseSchemaValidator = {
  (data: { response: unknown }): boolean;
  errors?: ErrorObject[] | null;
};

declare const precompiled: {
  /** SHA-256 of the generated/openapi.json the schemas were compiled from. */
  specSha256: string;
  /** The operations whose response schemas are here. */
  operationIds: string[];
  /**
   * The validators, by operationId, then status, then media type, as the validator's
   * ResponseValidator.buildValidators gives them; \`formats\` are its Ajv's formats.
   */
  load(formats: object): Record<string, Record<string, Record<string, ResponseSchemaValidator>>>;
};
export = precompiled;
`;

/**
 * Compiles the response schemas of `firstCalledOperations` as the server compiles them
 * (operationValidationInputs, the validator's ResponseValidator), each operation with an Ajv of
 * its own, and writes their standalone code as one CommonJS module (`code`) with its type
 * declaration (`types`). A response whose content another operation's already has is not
 * compiled twice: the server, too, compiles each content once (response-check.ts).
 */
export function buildResponseValidators(files: { spec: string; code: string; types: string }): void {
  const { spec, specSha256, operations } = readWarmedUpOperations(files.spec);
  const firstWithContent = new Map<string, string>();
  const blocks: string[] = [];
  for (const operation of operations) {
    const inputs = operationValidationInputs(spec, operation, {
      validateResponses: true,
      strictBodies: false,
    });
    const validator = responseValidatorFor(
      inputs.responseDocument,
      { ...inputs.responseAjvOptions, code: { source: true, formats: _`formats` } },
      inputs.validateResponses,
    );
    const built = validator.buildValidators(inputs.responses, inputs.responseCacheKey);
    const exported: Record<string, string> = {};
    const target = `operations[${literal(operation.operationId)}]`;
    const assignments = [`${target} = {};`];
    for (const [status, byMediaType] of Object.entries(built)) {
      const entry = `${target}[${literal(status)}]`;
      const content = JSON.stringify((inputs.responses[status] as { content?: unknown }).content ?? null);
      const earlier = firstWithContent.get(content);
      if (earlier !== undefined) {
        assignments.push(`${entry} = ${earlier};`);
        continue;
      }
      const mediaTypes = Object.keys(byMediaType).map((mediaType) => {
        const name = `${status} ${mediaType}`;
        exported[name] = `${inputs.responseCacheKey}-${status}-${mediaType}`;
        return `${literal(mediaType)}: exports[${literal(name)}]`;
      });
      assignments.push(`${entry} = { ${mediaTypes.join(", ")} };`);
      firstWithContent.set(content, entry);
    }
    const code = Object.keys(exported).length > 0 ? standalone.default(validator.ajvBody, exported) : "";
    blocks.push(`  {\n    const exports = {};\n    ${code}\n    ${assignments.join("\n    ")}\n  }\n`);
  }
  writeValidatorModule(files, { specSha256, operations, blocks, declaration });
}
