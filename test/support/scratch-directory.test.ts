import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheWithScratchSpace, makeScratchDirectory } from "./scratch-directory.ts";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A fresh directory in the usual temporary directory, removed after the test. */
function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "payreq-scratch-test-"));
  made.push(directory);
  return directory;
}

/** makeScratchDirectory's directory, removed after the test; returns its parent and name. */
function scratch(...args: Parameters<typeof makeScratchDirectory>) {
  const directory = makeScratchDirectory(...args);
  made.push(directory);
  return { parent: path.dirname(directory), name: path.basename(directory) };
}

describe("makeScratchDirectory", () => {
  it("makes the directory in the memory file system when it is writable and has the room", () => {
    const memory = temporaryDirectory();
    const { parent, name } = scratch("payreq-install-", { memoryFileSystem: memory, neededFreeBytes: 1 });
    expect(parent).toBe(memory);
    expect(name).toMatch(/^payreq-install-[A-Za-z0-9]{6}$/);
    expect(readdirSync(memory)).toEqual([name]);
  });

  it("falls back to the usual temporary directory when the memory file system has too little room", () => {
    const memory = temporaryDirectory();
    const { bavail, bsize } = statfsSync(memory);
    const { parent } = scratch("payreq-install-", {
      memoryFileSystem: memory,
      neededFreeBytes: bavail * bsize + 1,
    });
    expect(parent).toBe(os.tmpdir());
    expect(readdirSync(memory)).toEqual([]);
  });

  it("falls back to the usual temporary directory when there is no memory file system", () => {
    const missing = path.join(temporaryDirectory(), "no-such-directory");
    const { parent } = scratch("payreq-install-", { memoryFileSystem: missing, neededFreeBytes: 1 });
    expect(parent).toBe(os.tmpdir());
  });

  it("falls back to the usual temporary directory when the path is a file", () => {
    const file = path.join(temporaryDirectory(), "not-a-directory");
    writeFileSync(file, "");
    const { parent } = scratch("payreq-install-", { memoryFileSystem: file, neededFreeBytes: 1 });
    expect(parent).toBe(os.tmpdir());
  });
});

describe("cacheWithScratchSpace", () => {
  it("links every entry of the shared cache but its scratch space, which it keeps empty and its own", () => {
    const shared = temporaryDirectory();
    for (const entry of ["content-v2", "index-v5", "tmp"]) {
      mkdirSync(path.join(shared, "_cacache", entry), { recursive: true });
    }
    writeFileSync(path.join(shared, "_cacache", "tmp", "left-by-npm"), "");
    const scratchDirectory = temporaryDirectory();

    const cache = cacheWithScratchSpace(shared, scratchDirectory);

    expect(cache).toBe(path.join(scratchDirectory, "npm-cache"));
    const store = path.join(cache, "_cacache");
    expect(readdirSync(store).sort()).toEqual(["content-v2", "index-v5", "tmp"]);
    for (const entry of ["content-v2", "index-v5"]) {
      expect(lstatSync(path.join(store, entry)).isSymbolicLink(), entry).toBe(true);
      expect(readlinkSync(path.join(store, entry))).toBe(path.join(shared, "_cacache", entry));
    }
    expect(lstatSync(path.join(store, "tmp")).isDirectory()).toBe(true);
    expect(readdirSync(path.join(store, "tmp"))).toEqual([]);
    expect(realpathSync(path.join(store, "tmp"))).not.toBe(
      realpathSync(path.join(shared, "_cacache", "tmp")),
    );
    expect(readdirSync(path.join(shared, "_cacache", "tmp"))).toEqual(["left-by-npm"]);
  });
});
