import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's root: two levels up from src/cli (development) or dist/cli (published). */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

interface PackageJson {
  version: string;
  devDependencies?: Record<string, string>;
}

export function readPackageJson(): PackageJson {
  return JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as PackageJson;
}
