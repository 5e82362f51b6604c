import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { findMigrationsDirectory } from "../../src/server/store/postgres/migrate.ts";

describe("findMigrationsDirectory", () => {
  const migrations = path.join(repoRoot, "migrations");

  it("finds the package's migrations from the source file, four folders deep", () => {
    expect(findMigrationsDirectory()).toBe(migrations);
  });

  it("finds them from a bundle two folders deep, as npx payreq and the packed command run", () => {
    expect(findMigrationsDirectory(path.join(repoRoot, ".cache", "cli"))).toBe(migrations);
    expect(findMigrationsDirectory(path.join(repoRoot, "dist", "cli"))).toBe(migrations);
  });

  it("says so when no folder above holds them", () => {
    expect(() => findMigrationsDirectory(path.parse(repoRoot).root)).toThrow(
      /no package folder with migrations/,
    );
  });
});
