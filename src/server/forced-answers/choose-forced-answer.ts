import type { ResponseSpec, SpecOperation } from "../../spec/operations.ts";
import { sampleSchema } from "../../spec/schema-sample.ts";
import { resolveObject, type SpecDocument } from "../../spec/spec-document.ts";
import type { AnswerPreferences } from "../http/prefer-header.ts";
import { invalidField } from "../problems.ts";

/** The answer a `Prefer` header forces: a documented status, its headers and body. */
export interface ForcedAnswer {
  status: number;
  /** Absent when the status documents no content. */
  mediaType: string | undefined;
  /** undefined: no body. */
  body: unknown;
  headers: Record<string, string>;
}

const preferPath = "/headers/prefer";

/** The media ranges an `Accept` header allows, without parameters; those with `q=0` left out. */
function acceptedRanges(accept: string | undefined): string[] {
  if (accept === undefined) return [];
  return accept
    .split(",")
    .map((range) => range.split(";"))
    .filter(
      ([, ...parameters]) => !parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter)),
    )
    .map(([range = ""]) => range.trim().toLowerCase())
    .filter((range) => range !== "");
}

function allows(range: string, mediaType: string): boolean {
  if (range === "*/*" || range === mediaType) return true;
  return range.endsWith("/*") && mediaType.startsWith(range.slice(0, -1));
}

/**
 * The documented media types `Accept` allows, in the spec's order (its first is the one the
 * server answers itself); all of them when it allows none, or is absent.
 */
function candidateMediaTypes(response: ResponseSpec, accept: string | undefined): string[] {
  const documented = Object.keys(response.content);
  const ranges = acceptedRanges(accept);
  const allowed = documented.filter((mediaType) =>
    ranges.some((range) => allows(range, mediaType.toLowerCase())),
  );
  return allowed.length > 0 ? allowed : documented;
}

/** The documented headers' values from their schemas' examples (or defaults), but `X-Request-Id`. */
function headerSamples(spec: SpecDocument, response: ResponseSpec): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers)) {
    if (name === "x-request-id") continue;
    const schema = resolveObject(spec, header.schema);
    const value = Array.isArray(schema.examples) ? schema.examples[0] : schema.default;
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

/**
 * The answer `preferences` force on `route`: the status `code` (the success status when absent),
 * answered with the example `example` (its first example when absent) of the first media type
 * `accept` allows, or, where the media type has no example, a value built from its schema; no
 * body where the status documents none. A status the operation does not document, or an example
 * its status does not have, is a 400 naming the `Prefer` header.
 */
export function chooseForcedAnswer(
  spec: SpecDocument,
  route: SpecOperation,
  preferences: AnswerPreferences,
  accept: string | undefined,
): ForcedAnswer {
  const statuses = Object.keys(route.responses).filter((status) => /^\d{3}$/.test(status));
  const code = preferences.code ?? String(route.successStatus);
  const response = statuses.includes(code) ? route.responses[code] : undefined;
  if (!response) {
    throw invalidField(
      preferPath,
      `code=${code} is not a status ${route.operationId} documents; use one of ${statuses.join(", ")}`,
    );
  }
  const status = Number(code);
  const headers = headerSamples(spec, response);
  const mediaTypes = candidateMediaTypes(response, accept);
  if (preferences.example === undefined) {
    const [mediaType] = mediaTypes;
    if (mediaType === undefined) return { status, mediaType, body: undefined, headers };
    const content = response.content[mediaType];
    const [first] = content?.examples ?? [];
    const body = first ? first.value : sampleSchema(spec, content?.schema ?? {});
    return { status, mediaType, body, headers };
  }
  for (const mediaType of mediaTypes) {
    const found = response.content[mediaType]?.examples.find(({ name }) => name === preferences.example);
    if (found) return { status, mediaType, body: found.value, headers };
  }
  const names = mediaTypes.flatMap((mediaType) =>
    (response.content[mediaType]?.examples ?? []).map(({ name }) => name),
  );
  throw invalidField(
    preferPath,
    names.length === 0
      ? `example=${preferences.example} is not an example of ${route.operationId}'s ${code} answer, which has none`
      : `example=${preferences.example} is not an example of ${route.operationId}'s ${code} answer; use one of ${quoted(names)}`,
  );
}
