import type { TableDeclaration } from "./table-declaration.ts";

/** A table's fields as both stores read them: its key, lookups and kept values, normalised. */
export interface TableFields<R> {
  readonly declaration: TableDeclaration<R>;
  /** The values of `fields` named by a key or lookup value (the value itself, or an object of several). */
  valuesOf(fields: readonly string[], value: unknown): string[];
  /**
   * A function of a record giving its values of `fields`, normalised, as one text: the value of a
   * single field, the JSON of several; undefined where one is missing or `only` leaves the record
   * out. Made once per key and lookup, as the memory store's indexes call it on every write.
   */
  textOf(fields: readonly string[], only?: object): (record: R) => string | undefined;
  /** A field's value as kept: lower-cased when compared in any letter case. */
  normalise(field: string, value: unknown): unknown;
  /** Every field kept apart from the record (key, lookups' fields and conditions), each once. */
  readonly columnFields: readonly string[];
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
    textOf(fields, only) {
      const conditions = Object.entries(only ?? {});
      const admitted = (record: R) =>
        conditions.every(([field, value]) => (record as Record<string, unknown>)[field] === value);
      const fieldText = (record: R, field: string) => {
        const value = (record as Record<string, unknown>)[field];
        return value === undefined || value === null ? undefined : (normalise(field, value) as string);
      };
      const [single] = fields;
      if (fields.length === 1 && single !== undefined) {
        return conditions.length === 0
          ? (record) => fieldText(record, single)
          : (record) => (admitted(record) ? fieldText(record, single) : undefined);
      }
      return (record) => {
        if (!admitted(record)) return undefined;
        const values: string[] = [];
        for (const field of fields) {
          const value = fieldText(record, field);
          if (value === undefined) return undefined;
          values.push(value);
        }
        return JSON.stringify(values);
      };
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
