import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The bundled OpenAPI document every part of the server reads. */
export type ApiSpec = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  security?: SecurityRequirement[];
};
export type SecurityRequirement = Record<string, string[]>;

export const bundledSpecFile = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));
export const docsFile = fileURLToPath(new URL("../../docs/index.html", import.meta.url));

export function loadApiSpec(file = bundledSpecFile): ApiSpec {
  return JSON.parse(readFileSync(file, "utf8")) as ApiSpec;
}
