import { randomBytes, randomUUID } from "node:crypto";
import { ulid } from "ulid";

/**
 * CSPRNG bytes drawn in batches: a ULID reads 16 random fractions and a request id 32 bytes, and
 * one call into the OS for each cost more than the rest of a request. Each byte is handed out once.
 */
const pool = { bytes: Buffer.alloc(0), offset: 0 };
const poolSize = 4096;

/** Where the next `count` (at most `poolSize`) random bytes of the pool start; it refills when it runs out. */
function takeFromPool(count: number): number {
  if (pool.offset + count > pool.bytes.length) {
    pool.bytes = randomBytes(poolSize);
    pool.offset = 0;
  }
  pool.offset += count;
  return pool.offset - count;
}

/** The next `count` random bytes of the pool, as hex. */
function randomPoolHex(count: number): string {
  const start = takeFromPool(count);
  return pool.bytes.toString("hex", start, start + count);
}

/**
 * 4 bytes from the OS's CSPRNG as a fraction in [0, 1); 32 divides 2^32, so ULID characters stay
 * uniform. Read in place: a ULID asks for 16 of them.
 */
function cryptoRandom(): number {
  const start = takeFromPool(4); // first: taking may refill the pool with a new buffer
  return pool.bytes.readUInt32BE(start) / 2 ** 32;
}

/**
 * A ULID whose 80 random bits come from the CSPRNG. Not the monotonic factory: it would make
 * ids created in the same millisecond predictable from each other, and tokens are bearer secrets.
 */
export function newUlid(now: Date): string {
  return ulid(now.getTime(), cryptoRandom);
}

/** A request id: `01` and 64 random lower-case hex digits. */
export function newRequestId(): string {
  return `01${randomPoolHex(32)}`;
}

/** A payment-reference salt, as the chain module's generateSalt makes it: 16 lower-case hex digits, from the pool. */
export function newSalt(): string {
  return randomPoolHex(8);
}

export function newUuid(): string {
  return randomUUID();
}

/** A made-up transaction hash for sandbox payments that do not name one. */
export function newTxHash(): `0x${string}` {
  return `0x${randomPoolHex(32)}`;
}

/** The public value of a new client ID: `cli_` and 32 random hex digits. */
export function newClientIdValue(): string {
  return `cli_${randomBytes(16).toString("hex")}`;
}
