import { copyRecord } from "./copy-record.ts";
import type { Page, PageRequest } from "./records.ts";
import type { DeclaredTable, StoreTable, TableDeclaration } from "./table-declaration.ts";
import { type TableFields, tableFields } from "./table-fields.ts";

/** A key's or a lookup's values as one map key: the value of one field, or all of them as JSON. */
const encode = (values: readonly string[]) =>
  values.length === 1 ? (values[0] as string) : JSON.stringify(values);

/** One index: the value a record is found by, and the rows of each value. */
interface IndexEntries<R> {
  name: string;
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
 * One record table in memory, as its declaration says (tables.ts): rows by key, and per lookup
 * the rows of each value sorted by insertion position, so that a lookup or a page reads only what
 * it answers. Keys and lookup values are given as declared: the value of a one-field key, or an
 * object of the fields. A replaced record keeps its position. Every write returns the step that
 * undoes it. `onRead` hears of every record a read looks at, so that tests can check that nothing
 * walks a whole table.
 */
export class MemoryTable<R> {
  readonly #name: string;
  readonly #fields: TableFields<R>;
  readonly #rows = new Map<string, Row<R>>();
  readonly #indexes = new Map<string, IndexEntries<R>>();
  /** Each index, listed once for the writes that walk them all. */
  readonly #indexList: IndexEntries<R>[] = [];
  /** The indexes that refuse a second record with the value of one already kept. */
  readonly #unique: IndexEntries<R>[] = [];
  readonly #onRead: (table: string, records: number) => void;
  readonly #keyOf: (record: R) => string;
  #nextPosition = 1;

  constructor(declaration: TableDeclaration<R>, onRead: (table: string, records: number) => void) {
    this.#name = declaration.sqlName;
    this.#fields = tableFields(declaration);
    this.#onRead = onRead;
    const keyText = this.#fields.textOf(declaration.key);
    this.#keyOf = (record) => {
      const key = keyText(record);
      if (key === undefined) throw new Error(`${declaration.sqlName}: a record without its key`);
      return key;
    };
    for (const [name, lookup] of Object.entries(declaration.lookups)) {
      const index: IndexEntries<R> = {
        name,
        indexValue: this.#fields.textOf(lookup.fields, lookup.only),
        entries: new Map(),
      };
      this.#indexes.set(name, index);
      this.#indexList.push(index);
      if (lookup.unique) this.#unique.push(index);
    }
  }

  #key(key: unknown): string {
    return encode(this.#fields.valuesOf(this.#fields.declaration.key, key));
  }

  get(key: unknown): R | undefined {
    const row = this.#rows.get(this.#key(key));
    if (!row) return undefined;
    this.#onRead(this.#name, 1);
    return copy(row.record);
  }

  /** Inserts or replaces; returns the undo step. */
  put(record: R): () => void {
    const key = this.#keyOf(record);
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

  /**
   * The table as a transaction sees it (StoreTable): each write's undo step goes to `keepUndo`,
   * and a `find` filter keeps the records whose fields equal the filter's values.
   */
  storeTable(keepUndo: (step: () => void) => void): StoreTable<DeclaredTable<R>> {
    return {
      get: async (key) => this.get(key),
      put: async (record) => {
        keepUndo(this.put(record));
      },
      delete: async (key) => {
        const restore = this.delete(key);
        if (restore) keepUndo(restore);
        return restore !== undefined;
      },
      first: async (lookup, value) => this.first(lookup, value),
      find: async (lookup, value, page, filter) => this.find(lookup, value, page, this.#matches(filter)),
    };
  }

  #matches(filter: object | undefined): ((record: R) => boolean) | undefined {
    const wanted = this.#fields.filterEntries(filter);
    if (wanted.length === 0) return undefined;
    return (record) =>
      wanted.every(
        ([field, value]) =>
          this.#fields.normalise(field, (record as Record<string, unknown>)[field]) === value,
      );
  }

  /** Copies of every record, oldest first: what the table holds, for comparing states. */
  snapshot(): R[] {
    return [...this.#rows.values()].sort((a, b) => a.position - b.position).map((row) => copy(row.record));
  }

  /** Removes a record; returns the undo step, or undefined when there was none. */
  delete(key: unknown): (() => void) | undefined {
    return this.#delete(this.#key(key));
  }

  #delete(key: string): (() => void) | undefined {
    const row = this.#rows.get(key);
    if (!row) return undefined;
    this.#unindex(row);
    this.#rows.delete(key);
    return () => {
      this.#rows.set(key, row);
      this.#index(row);
    };
  }

  /** The first record (oldest) a lookup finds under `value`. */
  first(index: string, value: unknown): R | undefined {
    const row = this.#bucket(index, value)[0];
    if (!row) return undefined;
    this.#onRead(this.#name, 1);
    return copy(row.record);
  }

  /** Records a lookup finds under `value` that also pass `keep`, oldest first: all, or one page. */
  find(
    index: string,
    value: unknown,
    page?: PageRequest,
    keep: (record: R) => boolean = () => true,
  ): Page<R> {
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
    this.#onRead(this.#name, read);
    return { items, next: more && last ? last.position : null };
  }

  /** How many records a lookup finds under `value`, read from the index alone. */
  count(index: string, value: unknown): number {
    return this.#bucket(index, value).length;
  }

  /** Removes those of the `count` oldest records under `value` that pass `keep`; returns their undo steps. */
  removeOldest(index: string, value: unknown, count: number, keep: (record: R) => boolean): (() => void)[] {
    const oldest = this.#bucket(index, value).slice(0, count);
    this.#onRead(this.#name, oldest.length);
    return oldest
      .filter((row) => keep(row.record))
      .map((row) => this.#delete(this.#keyOf(row.record)) as () => void);
  }

  #bucket(index: string, value: unknown): Row<R>[] {
    const found = this.#indexes.get(index);
    if (!found) throw new Error(`${this.#name} has no lookup ${index}`);
    const fields = this.#fields.declaration.lookups[index]?.fields ?? [];
    return found.entries.get(encode(this.#fields.valuesOf(fields, value))) ?? [];
  }

  #checkUnique(record: R, key: string): void {
    for (const { name, indexValue, entries } of this.#unique) {
      const value = indexValue(record);
      if (value === undefined) continue;
      const holder = entries.get(value)?.[0];
      if (holder && this.#keyOf(holder.record) !== key) {
        throw new UniqueViolationError(this.#name, name, value);
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
