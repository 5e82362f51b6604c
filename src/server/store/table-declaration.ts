import type { Page, PageRequest } from "./records.ts";

/** A record field whose values are text: what keys and lookups are made of. */
export type TextField<R> = { [F in keyof R]-?: NonNullable<R[F]> extends string ? F : never }[keyof R] &
  string;

/** A named way to find a table's records: an index in both stores. */
export interface LookupDeclaration<R> {
  /**
   * The fields it finds records by. A record whose value of one of them is null or absent is not
   * in it; no fields: every record (that `only` lets in) is, under one value.
   */
  readonly fields: readonly TextField<R>[];
  /** Only the records with these values are in it (a partial index). */
  readonly only?: { readonly [F in keyof R]?: R[F] };
  /** At most one record per value: a put that would make a second is refused. */
  readonly unique?: boolean;
  /** Listed, oldest first and a page at a time, with `find`; otherwise only `first` reads it. */
  readonly listed?: boolean;
}

/** One record table: how both stores keep the records of one type. */
export interface TableDeclaration<R> {
  /** The table in PostgreSQL (see migrations/). */
  readonly sqlName: string;
  /** The fields that identify a record; a put of a record with the key of another replaces it. */
  readonly key: readonly TextField<R>[];
  readonly lookups: { readonly [name: string]: LookupDeclaration<R> };
  /** Fields compared in any letter case: kept lower-cased in keys and lookups, and looked up so. */
  readonly caseInsensitive?: readonly TextField<R>[];
}

declare const recordType: unique symbol;

/** A declaration that knows its record type (a type-only mark: nothing of it exists at run time). */
export type DeclaredTable<R, D extends TableDeclaration<R> = TableDeclaration<R>> = D & {
  readonly [recordType]?: (record: R) => R;
};

/** Declares a table of `R` records: `declareTable<Thing>()({ sqlName, key, lookups })`. */
export function declareTable<R>() {
  return <const D extends TableDeclaration<R>>(declaration: D): DeclaredTable<R, D> => declaration;
}

// biome-ignore lint/suspicious/noExplicitAny: any declared table, whatever its record type.
export type AnyTable = DeclaredTable<any>;

/** The record type of a declared table. */
export type RecordOf<T extends AnyTable> = T extends { readonly [recordType]?: (record: infer R) => unknown }
  ? R
  : never;

/** What names a record among some fields: the value of the one field, or an object of several. */
export type FieldValues<F extends readonly string[]> = F extends readonly [string]
  ? string
  : { readonly [K in F[number]]: string };

export type KeyValue<T extends AnyTable> = FieldValues<T["key"]>;
export type LookupName<T extends AnyTable> = keyof T["lookups"] & string;
/** The lookups declared `listed`: those `find` reads. */
export type ListedLookupName<T extends AnyTable> = {
  [L in LookupName<T>]: T["lookups"][L] extends { readonly listed: true } ? L : never;
}[LookupName<T>];
export type LookupValue<T extends AnyTable, L extends LookupName<T>> = FieldValues<T["lookups"][L]["fields"]>;

/** The fields both stores keep apart from the record (PostgreSQL in columns): key, lookups, conditions. */
export type ColumnField<T extends AnyTable> =
  | T["key"][number]
  | T["lookups"][LookupName<T>]["fields"][number]
  | {
      [L in LookupName<T>]: T["lookups"][L] extends { readonly only: infer O } ? keyof O & string : never;
    }[LookupName<T>];

/** Further fields a `find` narrows to, each one equal to the value given. */
export type RecordFilter<T extends AnyTable> = {
  readonly [F in ColumnField<T>]?: NonNullable<RecordOf<T>[F & keyof RecordOf<T>]>;
};

/**
 * One record table of a store, typed from its declaration. Every method returns copies, and
 * reads only the records it answers (plus those a filter skips); lists come oldest first.
 */
export interface StoreTable<T extends AnyTable> {
  get(key: KeyValue<T>): Promise<RecordOf<T> | undefined>;
  /** Inserts or replaces, by key; a put that a unique lookup refuses throws and changes nothing. */
  put(record: RecordOf<T>): Promise<void>;
  /** Removes a record; true when there was one. */
  delete(key: KeyValue<T>): Promise<boolean>;
  /** The oldest record a lookup finds under a value. */
  first<L extends LookupName<T>>(lookup: L, value: LookupValue<T, L>): Promise<RecordOf<T> | undefined>;
  /**
   * The records a listed lookup finds under a value that also match `filter`, oldest first: all
   * of them, or one page.
   */
  find<L extends ListedLookupName<T>>(
    lookup: L,
    value: LookupValue<T, L>,
    page?: PageRequest,
    filter?: RecordFilter<T>,
  ): Promise<Page<RecordOf<T>>>;
}

/** The tables of `T` (a set of declarations), as a store answers them. */
export type StoreTables<T extends { readonly [name: string]: AnyTable }> = {
  readonly [N in keyof T]: StoreTable<T[N]>;
};
