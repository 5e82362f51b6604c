/** A cell a spreadsheet would run as a formula: written after an apostrophe, so that it stays text. */
const formulaStart = /^[=+\-@\t\r]/;

/** One CSV cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
function csvCell(value: string): string {
  const safe = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A CSV file: the header line, then one line per row, each ended by CRLF as RFC 4180 says. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}
