import querystring from "node:querystring";
import { screenBody } from "../server/validation/body-screen.ts";
import type { OperationValidatorSet } from "../server/validation/operation-validators.ts";
import { unknownMemberMessage } from "../server/validation/validation-issues.ts";
import type { SpecOperation } from "../spec/operations.ts";
import type { Violation } from "./checked-call.ts";

/** What the client sent, as the proxy read it. */
export interface SentRequest {
  /** The path parameters the route table matched, decoded. */
  pathParams: Record<string, string>;
  /** The query string without its `?`. */
  query: string;
  /** Header names in lower case, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

const mediaTypeOf = (contentType: string | undefined) =>
  (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

const isJson = (mediaType: string) => mediaType === "application/json" || mediaType.endsWith("+json");

const requestViolation = (member: string, rule: string): Violation => ({ side: "request", member, rule });

/** The body as JSON, or the violation that keeps it from being checked. */
function readBody(operation: SpecOperation, request: SentRequest): { body: unknown } | Violation {
  const documented = operation.body;
  if (request.body.length === 0) {
    return documented?.required ? requestViolation("/body", "is required") : { body: undefined };
  }
  if (!documented) return requestViolation("/body", "the operation takes no body");
  const mediaType = mediaTypeOf(request.headers["content-type"] as string | undefined);
  if (mediaType !== documented.mediaType.toLowerCase()) {
    return requestViolation(
      "header content-type",
      `"${mediaType || "(none)"}" is not the documented ${documented.mediaType}`,
    );
  }
  if (!isJson(mediaType)) return { body: undefined };
  try {
    return { body: JSON.parse(utf8.decode(request.body)) };
  } catch {
    return requestViolation("/body", "is not UTF-8 JSON");
  }
}

/**
 * The spec's security requirement: the headers of at least one of the operation's credential sets
 * (a session travels in Cookie). Whether the credential is good is the upstream's to say.
 */
function credentialViolation(
  operation: SpecOperation,
  headers: SentRequest["headers"],
): Violation | undefined {
  if (operation.acceptsAnonymous || operation.credentials.length === 0) return undefined;
  const sent = (name: string) => headers[name] !== undefined && headers[name] !== "";
  if (operation.credentials.some((set) => set.every(sent))) return undefined;
  const alternatives = operation.credentials.map((set) => set.join(" with ")).join(", or ");
  return requestViolation("credentials", `none sent: send ${alternatives}`);
}

/**
 * What the request breaks of its operation: a credential missing, then what the server's own
 * checks find (body-screen.ts and operation-validators.ts): the body's sizes, then the path,
 * query, headers and body against their schemas. Values are never quoted, since a request may carry secrets.
 */
export function judgeRequest(
  validatorsOf: OperationValidatorSet,
  operation: SpecOperation,
  request: SentRequest,
  strictBodies: boolean,
): Violation[] {
  const credentials = credentialViolation(operation, request.headers);
  const found = credentials ? [credentials] : [];
  const read = readBody(operation, request);
  if ("side" in read) return [...found, read];
  const validators = validatorsOf(operation);
  let body = read.body;
  if (body !== undefined && validators.bodyLimits) {
    const screened = screenBody(body, validators.bodyLimits, strictBodies);
    if (screened.refused) {
      return [
        ...found,
        ...screened.issues.map((issue) =>
          requestViolation(
            issue.path,
            // The screen shows an unknown member's value, which may be a secret.
            issue.message.startsWith(unknownMemberMessage)
              ? "is not a member the spec describes here"
              : issue.message,
          ),
        ),
      ];
    }
    body = screened.body;
  }
  const issues = validators.checkRequest({
    path: { ...request.pathParams },
    query: { ...querystring.parse(request.query) },
    headers: { ...request.headers },
    body,
  });
  return [...found, ...issues.map((issue) => requestViolation(issue.path, issue.message))];
}
