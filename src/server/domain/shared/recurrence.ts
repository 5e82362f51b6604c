import { invalidField } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { Schemas } from "./wire-types.ts";

type Frequency = Schemas["RecurrenceFrequency"];

/** Seconds between two payments of each frequency, as a recurring payment permit counts them. */
export const periodSecondsOf: Readonly<Record<Frequency, number>> = {
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
  MONTHLY: 30 * 86_400,
  YEARLY: 365 * 86_400,
};

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a stored recurrence starts: a date is midnight UTC, an instant is read as written. */
export function recurrenceStart(value: string): Date {
  return dateOnly.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
}

/**
 * The instant a recurrence starts: a date is midnight UTC, an instant is read as written. Refused
 * with 400 at `path` when it is no real date, or earlier than the start of today (UTC) on the
 * sandbox clock: a form's "today" sent as midnight must still pass.
 */
export function readStartDate(value: string, now: Date, path: string): Date {
  const calendarDay = value.slice(0, 10);
  const midnight = new Date(`${calendarDay}T00:00:00.000Z`);
  const start = dateOnly.test(value) ? midnight : new Date(value);
  // Date rolls 2026-02-30 over to March: a real date reads back as itself.
  const real =
    !Number.isNaN(midnight.getTime()) &&
    !Number.isNaN(start.getTime()) &&
    midnight.toISOString().slice(0, 10) === calendarDay;
  if (!real) {
    throw invalidField(path, `must be a real date such as 2026-05-01, got "${value}"`);
  }
  const today = now.toISOString().slice(0, 10);
  if (start.getTime() < Date.parse(`${today}T00:00:00.000Z`)) {
    throw invalidField(path, `cannot be in the past (today is ${today} in UTC), got "${value}"`);
  }
  return start;
}

/** How many later periods of `original` have started by `now`: the first period is the request itself. */
export function periodsDue(original: RequestRecord, now: Date): number {
  if (!original.recurrence) return 0;
  const start = recurrenceStart(original.recurrence.startDate).getTime();
  const periodMs = periodSecondsOf[original.recurrence.frequency] * 1000;
  const elapsed = now.getTime() - start;
  return Number.isNaN(elapsed) || elapsed < periodMs ? 0 : Math.floor(elapsed / periodMs);
}
