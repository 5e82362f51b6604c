import { randomBytes, randomUUID } from "node:crypto";
import { ulid } from "ulid";

/**
 * CSPRNG bytes drawn in batches: a ULID reads 16 random fractions, and one call into the OS per
 * fraction cost more than the rest of a request. Each byte is handed out once.
 */
const pool = { bytes: Buffer.alloc(0), offset: 0 };
const poolSize = 4096;

/** 4 bytes from the OS's CSPRNG as a fraction in [0, 1); 32 divides 2^32, so ULID characters stay uniform. */
function cryptoRandom(): number {
  if (pool.offset + 4 > pool.bytes.length) {
    pool.bytes = randomBytes(poolSize);
    pool.offset = 0;
  }
  const value = pool.bytes.readUInt32BE(pool.offset);
  pool.offset += 4;
  return value / 2 ** 32;
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
  return `01${randomBytes(32).toString("hex")}`;
}

export function newUuid(): string {
  return randomUUID();
}

/** A made-up transaction hash for sandbox payments that do not name one. */
export function newTxHash(): `0x${string}` {
  return `0x${randomBytes(32).toString("hex")}`;
}
