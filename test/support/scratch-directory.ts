import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statfsSync,
  statSync,
  symlinkSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where a scratch directory goes when it can, and the room it must find free there. */
export interface ScratchPlace {
  /** A file system kept in memory; by default Linux's shared memory, /dev/shm, never journaled to a disk. */
  memoryFileSystem: string;
  /**
   * By default 1 GiB: the installed-package test holds some 300 MB at its peak, and containers
   * often give /dev/shm only 64 MB, where it would run out of space.
   */
  neededFreeBytes: number;
}

const inSharedMemory: ScratchPlace = { memoryFileSystem: "/dev/shm", neededFreeBytes: 1024 ** 3 };

/** True when `directory` is a directory this process can write in, with `neededFreeBytes` free. */
function hasRoomToWrite(directory: string, neededFreeBytes: number): boolean {
  try {
    accessSync(directory, constants.W_OK);
    if (!statSync(directory).isDirectory()) return false;
    const { bavail, bsize } = statfsSync(directory);
    return bavail * bsize >= neededFreeBytes;
  } catch {
    return false;
  }
}

/**
 * A new temporary directory for a test that writes and deletes tens of thousands of files (npm
 * installs): in memory (/dev/shm) where the system has it with room enough, else in the usual
 * temporary directory. On a journaled disk such a test spends much of its time waiting on it.
 */
export function makeScratchDirectory(prefix: string, place: ScratchPlace = inSharedMemory): string {
  const parent = hasRoomToWrite(place.memoryFileSystem, place.neededFreeBytes)
    ? place.memoryFileSystem
    : os.tmpdir();
  return mkdtempSync(path.join(parent, prefix));
}

/**
 * An npm cache for `npm_config_cache` that reads the packages of `sharedCache` (npm's cache, as
 * `npm ci` filled it) and keeps its own scratch space under `directory`. npm clones a git
 * dependency, installs its dependencies and packs it in the cache's `_cacache/tmp`: with
 * `directory` from makeScratchDirectory, that too happens in memory. Every other entry of the
 * shared cache is linked, so the packages stay where they are and npm still finds them offline.
 */
export function cacheWithScratchSpace(sharedCache: string, directory: string): string {
  const cache = path.join(directory, "npm-cache");
  const store = path.join(cache, "_cacache");
  mkdirSync(path.join(store, "tmp"), { recursive: true });
  const sharedStore = path.join(sharedCache, "_cacache");
  for (const entry of readdirSync(sharedStore)) {
    if (entry !== "tmp") symlinkSync(path.join(sharedStore, entry), path.join(store, entry));
  }
  return cache;
}
