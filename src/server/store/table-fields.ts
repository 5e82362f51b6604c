import type { LookupDeclaration, TableDeclaration } from "./table-declaration.ts";

/** A table's fields as both stores read them: its key, lookups and kept values, normalised. */
export interface TableFields<R> {
  readonly declaration: TableDeclaration<R>;
  /** The values of `fields` named by a key or lookup value (the value itself, or an object of several). */
  valuesOf(fields: readonly string[], value: unknown): string[];
  /** A record's values of `fields`, normalised; null where it has none. */
  recordValues(record: R, fields: readonly string[]): (string | null)[];
  /** A field's value as kept: lower-cased when compared in any letter case. */
  normalise(field: string, value: unknown): unknown;
  /** Every field kept apart from the record (key, lookups' fields and conditions), each once. */
  readonly columnFields: readonly string[];
  /** Whether a record is among those a lookup's `only` lets in. */
  admits(lookup: LookupDeclaration<R>, record: R): boolean;
  /** A filter's pairs of field and normalised value, each field checked to be a kept one. */
  filterEntries(filter: object | undefined): [string, unknown][];
}

/** The field helpers of one declared table; both stores build theirs with it. */
export function tableFields<R>(declaration: TableDeclaration<R>): TableFields<R> {
  const caseInsensitive = new Set<string>(declaration.caseInsensitive ?? []);
  const normalise = (field: string, value: unknown) =>
    caseInsensitive.has(field) && typeof value === "string" ? value.toLowerCase() : value;
  const columnFields = [
    ...new Set<string>([
      ...declaration.key,
      ...Object.values(declaration.lookups).flatMap((lookup) => [
        ...lookup.fields,
        ...Object.keys(lookup.only ?? {}),
      ]),
    ]),
  ];
  const kept = new Set(columnFields);
  return {
    declaration,
    columnFields,
    normalise,
    valuesOf(fields, value) {
      if (fields.length === 1) return [normalise(fields[0] as string, value) as string];
      return fields.map((field) => normalise(field, (value as Record<string, unknown>)[field]) as string);
    },
    recordValues(record, fields) {
      return fields.map((field) => {
        const value = (record as Record<string, unknown>)[field];
        return value === undefined || value === null ? null : (normalise(field, value) as string);
      });
    },
    admits(lookup, record) {
      for (const [field, value] of Object.entries(lookup.only ?? {})) {
        if ((record as Record<string, unknown>)[field] !== value) return false;
      }
      return true;
    },
    filterEntries(filter) {
      return Object.entries(filter ?? {})
        .filter(([, value]) => value !== undefined)
        .map(([field, value]) => {
          if (!kept.has(field)) {
            throw new Error(`${declaration.sqlName} cannot be filtered by ${field}: it keeps no such field`);
          }
          return [field, normalise(field, value)];
        });
    },
  };
}
