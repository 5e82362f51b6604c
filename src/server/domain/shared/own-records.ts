import { notFound } from "../../problems.ts";
import type { Principal } from "./principal.ts";

/**
 * The record when it belongs to the caller's account; otherwise 404 with `missing` as the detail.
 * Another account's record is as unknown to the caller as one that does not exist.
 */
export async function requireOwnRecord<R extends { accountId: string }>(
  pending: Promise<R | undefined>,
  principal: Principal,
  missing: string,
): Promise<R> {
  const record = await pending;
  if (!record || record.accountId !== principal.accountId) throw notFound(missing);
  return record;
}
