/**
 * How logs and reports name the path of a call that matches no operation (the server's request
 * log, the validating proxy). A misspelt path may still
 * hold a token or a key (`/v2/secure-payment/01KM…`), and reports and lines must never show one:
 * each segment is kept only when a path of the spec has it as a literal segment, or when it reads
 * as a misspelt word (lower-case letters and hyphens, at most 32 of them) or a version (`v9`); any
 * other segment is written `{…}`.
 */
export function unmatchedPathNamer(pathTemplates: readonly string[]): (path: string) => string {
  const literals = new Set(
    pathTemplates.flatMap((template) => template.split("/").filter((segment) => !segment.includes("{"))),
  );
  const wordLike = /^(?:[a-z][a-z-]{0,31}|v\d{1,2})$/;
  return (path) =>
    path
      .split("/")
      .map((segment) => (segment === "" || literals.has(segment) || wordLike.test(segment) ? segment : "{…}"))
      .join("/");
}
