// Part of `npm run build`: the request schemas of the operations the server warms up before it
// answers, compiled by Ajv here instead of at every start (src/server/http/precompiled-requests.ts).
import { _ } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import {
  operationValidationInputs,
  requestSchemaKey,
} from "../src/server/http/operation-validation-inputs.ts";
import { compileRequestSchemas } from "../src/server/http/request-validator-parts.ts";
import { literal, readWarmedUpOperations, writeValidatorModule } from "./precompiled-validators.ts";

const declaration = `import type { ErrorObject } from "ajv";

/** A compiled request schema: it checks (and coerces) \`{ query, headers, params, cookies, body }\`; the errors of the last call are in \`errors\`. */
type RequestSchemaValidator = {
  (data: Record<string, unknown>): boolean;
  errors?: ErrorObject[] | null;
};

declare const precompiled: {
  /** SHA-256 of the generated/openapi.json the schemas were compiled from. */
  specSha256: string;
  /** The operations whose request schemas are here. */
  operationIds: string[];
  /**
   * The validators, by operationId: \`general\` for the parameters and \`body\` for the body, as the
   * validator's RequestValidator compiles them; \`formats\` are its Ajv's formats.
   */
  load(formats: object): Record<string, { general: RequestSchemaValidator; body: RequestSchemaValidator }>;
};
export = precompiled;
`;

/**
 * Compiles the request schemas of `firstCalledOperations` as the server does without strictBodies
 * (operationValidationInputs, the validator's RequestValidator and its `buildMiddleware`), each
 * operation with Ajv instances of its own, and writes their standalone code as one CommonJS
 * module (`code`) with its type declaration (`types`).
 */
export function buildRequestValidators(files: { spec: string; code: string; types: string }): void {
  const { spec, specSha256, operations } = readWarmedUpOperations(files.spec);
  const blocks: string[] = [];
  for (const operation of operations) {
    const inputs = operationValidationInputs(spec, operation, {
      validateResponses: true,
      strictBodies: false,
    });
    const validator = compileRequestSchemas(inputs, operation, {
      ...inputs.requestAjvOptions,
      code: { source: true, formats: _`formats` },
    });
    const key = requestSchemaKey(operation);
    const target = `operations[${literal(operation.operationId)}]`;
    const part = (name: string, code: string) =>
      `  {\n    const exports = {};\n    ${code}\n    ${target}.${name} = exports.${name};\n  }\n`;
    blocks.push(
      `  ${target} = {};\n`,
      part("general", standalone.default(validator.ajv, { general: key })),
      part("body", standalone.default(validator.ajvBody, { body: key })),
    );
  }
  writeValidatorModule(files, { specSha256, operations, blocks, declaration });
}
