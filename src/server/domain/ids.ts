import { randomBytes, randomUUID } from "node:crypto";
import { ulid } from "ulid";

/** 4 bytes from the OS's CSPRNG as a fraction in [0, 1); 32 divides 2^32, so ULID characters stay uniform. */
const cryptoRandom = () => randomBytes(4).readUInt32BE() / 2 ** 32;

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

/** The public value of a new client ID: `cli_` and 32 random hex digits. */
export function newClientIdValue(): string {
  return `cli_${randomBytes(16).toString("hex")}`;
}
