import { copyRecord } from "./copy-record.ts";
import type { Page, PageRequest } from "./records.ts";

/** How a record type is kept in memory: its primary key and the secondary indexes its queries use. */
export interface MemoryTableSpec<R> {
  name: string;
  key(record: R): string;
  /** Each index finds records by the value its function gives; undefined leaves a record out of it. */
  indexes: Record<string, (record: R) => string | undefined>;
  /** Indexes that refuse a second record with the value of one already kept. */
  unique?: readonly string[];
}

/** One index: the value a record is found by, and the rows of each value. */
interface IndexEntries<R> {
  indexValue: (record: R) => string | undefined;
  entries: Map<string, Row<R>[]>;
}

interface Row<R> {
  position: number;
  record: R;
}

/** A write refused by a unique index; the SQL store refuses the same write with its constraint. */
export class UniqueViolationError extends Error {
  constructor(table: string, index: string, value: string) {
    super(`${table} already holds a record with ${index} ${value}`);
    this.name = "UniqueViolationError";
  }
}

const copy = copyRecord;

/** The first place in `rows` (sorted by position) whose position is above `after`. */
function firstAfter<R>(rows: Row<R>[], after: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((rows[middle] as Row<R>).position <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One record type in memory: rows by primary key, and per index the rows of each value sorted by
 * insertion position, so that a lookup or a page reads only what it answers. A replaced record
 * keeps its position. Every write returns the step that undoes it. `onRead` hears of every record
 * a read looks at, so that tests can check that nothing walks a whole table.
 */
export class MemoryTable<R> {
  readonly #spec: MemoryTableSpec<R>;
  readonly #rows = new Map<string, Row<R>>();
  readonly #indexes = new Map<string, Map<string, Row<R>[]>>();
  /** Each index's value function and entries, listed once for the writes that walk them all. */
  readonly #indexList: IndexEntries<R>[] = [];
  readonly #onRead: (table: string, records: number) => void;
  #nextPosition = 1;

  constructor(spec: MemoryTableSpec<R>, onRead: (table: string, records: number) => void) {
    this.#spec = spec;
    this.#onRead = onRead;
    for (const [name, indexValue] of Object.entries(spec.indexes)) {
      const entries = new Map<string, Row<R>[]>();
      this.#indexes.set(name, entries);
      this.#indexList.push({ indexValue, entries });
    }
  }

  get(key: string): R | undefined {
    const row = this.#rows.get(key);
    if (!row) return undefined;
    this.#onRead(this.#spec.name, 1);
    return copy(row.record);
  }

  /** Inserts or replaces; returns the undo step. */
  put(record: R): () => void {
    const key = this.#spec.key(record);
    const previous = this.#rows.get(key);
    this.#checkUnique(record, key);
    const row: Row<R> = { position: previous?.position ?? this.#nextPosition++, record: copy(record) };
    if (previous) this.#unindex(previous);
    this.#rows.set(key, row);
    this.#index(row);
    return () => {
      this.#unindex(row);
      if (previous) {
        this.#rows.set(key, previous);
        this.#index(previous);
      } else {
        this.#rows.delete(key);
      }
    };
  }

  /** Copies of every record, oldest first: what the table holds, for comparing states. */
  snapshot(): R[] {
    return [...this.#rows.values()].sort((a, b) => a.position - b.position).map((row) => copy(row.record));
  }

  /** Removes a record; returns the undo step, or undefined when there was none. */
  delete(key: string): (() => void) | undefined {
    const row = this.#rows.get(key);
    if (!row) return undefined;
    this.#unindex(row);
    this.#rows.delete(key);
    return () => {
      this.#rows.set(key, row);
      this.#index(row);
    };
  }

  /** The first record (oldest) with `value` in the index. */
  first(index: string, value: string): R | undefined {
    const row = this.#bucket(index, value)[0];
    if (!row) return undefined;
    this.#onRead(this.#spec.name, 1);
    return copy(row.record);
  }

  /** Records with `value` in the index that also pass `keep`, oldest first: all, or one page. */
  find(index: string, value: string, page?: PageRequest, keep: (record: R) => boolean = () => true): Page<R> {
    const rows = this.#bucket(index, value);
    const limit = page?.limit ?? Number.POSITIVE_INFINITY;
    const items: R[] = [];
    let last: Row<R> | undefined;
    let read = 0;
    let more = false;
    for (let at = firstAfter(rows, page?.after ?? 0); at < rows.length; at++) {
      const row = rows[at] as Row<R>;
      read++;
      if (!keep(row.record)) continue;
      if (items.length === limit) {
        more = true;
        break;
      }
      items.push(copy(row.record));
      last = row;
    }
    this.#onRead(this.#spec.name, read);
    return { items, next: more && last ? last.position : null };
  }

  /** How many records the index holds under `value`, read from the index alone. */
  count(index: string, value: string): number {
    return this.#bucket(index, value).length;
  }

  /** The keys of the records among the `count` oldest under `value` that pass `keep`. */
  oldestKeys(index: string, value: string, count: number, keep: (record: R) => boolean): string[] {
    const oldest = this.#bucket(index, value).slice(0, count);
    this.#onRead(this.#spec.name, oldest.length);
    return oldest.filter((row) => keep(row.record)).map((row) => this.#spec.key(row.record));
  }

  #bucket(index: string, value: string): Row<R>[] {
    const entries = this.#indexes.get(index);
    if (!entries) throw new Error(`${this.#spec.name} has no index ${index}`);
    return entries.get(value) ?? [];
  }

  #checkUnique(record: R, key: string): void {
    for (const index of this.#spec.unique ?? []) {
      const value = this.#spec.indexes[index]?.(record);
      if (value === undefined) continue;
      const holder = this.#bucket(index, value)[0];
      if (holder && this.#spec.key(holder.record) !== key) {
        throw new UniqueViolationError(this.#spec.name, index, value);
      }
    }
  }

  #index(row: Row<R>): void {
    for (const { indexValue, entries } of this.#indexList) {
      const value = indexValue(row.record);
      if (value === undefined) continue;
      const rows = entries.get(value);
      if (!rows) entries.set(value, [row]);
      else if ((rows.at(-1)?.position ?? 0) < row.position) rows.push(row);
      else rows.splice(firstAfter(rows, row.position), 0, row);
    }
  }

  #unindex(row: Row<R>): void {
    for (const { indexValue, entries } of this.#indexList) {
      const value = indexValue(row.record);
      if (value === undefined) continue;
      const rows = entries.get(value) ?? [];
      const at = firstAfter(rows, row.position - 1);
      if (rows[at] === row) rows.splice(at, 1);
      if (rows.length === 0) entries.delete(value);
    }
  }
}
