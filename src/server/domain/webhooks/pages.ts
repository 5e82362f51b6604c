import { invalidField } from "../../problems.ts";
import type { Page, PageRequest } from "../../store/records.ts";

/** The page a list call asks for: `limit` (the spec's default filled in) and the `cursor` it was given. */
export function readPageQuery(query: { limit?: number; cursor?: string }): PageRequest {
  // The validator fills in the spec's default; a limit is always there.
  const limit = query.limit as number;
  if (query.cursor === undefined) return { limit };
  const position = Number(Buffer.from(query.cursor, "base64url").toString("utf8"));
  if (!Number.isSafeInteger(position) || position < 1) {
    throw invalidField("/query/cursor", `is not a cursor this list answered, got "${query.cursor}"`);
  }
  return { limit, after: position };
}

/** The cursor of the page after `page`; null when `page` ends the list. */
export function nextCursor(page: Page<unknown>): string | null {
  return page.next === null ? null : Buffer.from(String(page.next), "utf8").toString("base64url");
}
