import type { Schemas } from "./wire-types.ts";

export type FaultRequest = Schemas["SandboxFaultCreate"];
export type Fault = Schemas["SandboxFault"];

/** The most faults one account may have at once. */
export const maxFaultsPerAccount = 100;

/**
 * Whether a share fault applies to the `seen`-th call (counting from 1): the calls it applies to
 * are spread evenly, `floor(seen × share)` of the first `seen`, with no chance involved.
 */
function shareApplies(share: number, seen: number): boolean {
  // The small margin keeps products such as 100 × 0.29 (28.999...) on the whole number they stand for.
  const upTo = (calls: number) => Math.floor(calls * share + 1e-9);
  return upTo(seen) > upTo(seen - 1);
}

/**
 * The faults of every account, kept in this server's memory. `size` counts them all, so that a
 * call, when there is none, pays one comparison.
 */
export class FaultBook {
  #byAccount = new Map<string, Fault[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The account's faults, oldest first. */
  list(accountId: string): Fault[] {
    return [...(this.#byAccount.get(accountId) ?? [])];
  }

  add(accountId: string, fault: Fault): void {
    const faults = this.#byAccount.get(accountId) ?? [];
    faults.push(fault);
    this.#byAccount.set(accountId, faults);
    this.#size++;
  }

  /** Removes one of the account's faults; false when it has none of that id. */
  delete(accountId: string, faultId: string): boolean {
    const faults = this.#byAccount.get(accountId) ?? [];
    const index = faults.findIndex((fault) => fault.id === faultId);
    if (index < 0) return false;
    faults.splice(index, 1);
    this.#size--;
    return true;
  }

  clear(accountId: string): void {
    this.#size -= this.#byAccount.get(accountId)?.length ?? 0;
    this.#byAccount.delete(accountId);
  }

  /**
   * The fault that applies to a call of `operationId` by the account, counted as seen and
   * applied; undefined when none does. Faults are checked oldest first, and the first that
   * applies takes the call: the ones after it do not see it. A fault whose `calls` are used up
   * leaves the book.
   */
  take(accountId: string, operationId: string): Fault | undefined {
    const faults = this.#byAccount.get(accountId);
    if (!faults) return undefined;
    for (const fault of faults) {
      if (fault.operationId !== null && fault.operationId !== operationId) continue;
      fault.seenCalls++;
      if (fault.share !== null && !shareApplies(fault.share, fault.seenCalls)) continue;
      fault.appliedCalls++;
      if (fault.callsLeft !== null) {
        fault.callsLeft--;
        if (fault.callsLeft === 0) this.delete(accountId, fault.id);
      }
      return fault;
    }
    return undefined;
  }
}
