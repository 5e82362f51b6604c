import type { operations, paths } from "../../../../generated/schema.d.ts";
import type { DomainContext, ServerContext } from "./context.ts";
import type { Caller, Principal } from "./principal.ts";

type Method = "get" | "put" | "post" | "delete" | "patch";

/** The operation objects the spec's `paths` hold (webhooks are not among them). */
type PathOperationObject = {
  [P in keyof paths]: { [M in Method]: NonNullable<paths[P][M]> }[Method];
}[keyof paths];

/** The operationId of every operation under `paths`: the keys of the operation table. */
export type PathOperationId = {
  [K in keyof operations]: operations[K] extends PathOperationObject ? K : never;
}[keyof operations];

type NeverToEmpty<T> = [T] extends [never] ? Record<string, never> : T;
type ParametersOf<K extends PathOperationId> = operations[K]["parameters"];

export type PathParamsOf<K extends PathOperationId> = NeverToEmpty<NonNullable<ParametersOf<K>["path"]>>;
export type QueryOf<K extends PathOperationId> = NeverToEmpty<NonNullable<ParametersOf<K>["query"]>>;

/** The JSON body an operation takes; `undefined` for operations without one. */
export type BodyOf<K extends PathOperationId> = operations[K] extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? [Body] extends [never]
    ? undefined
    : Body
  : undefined;

type Responses<K extends PathOperationId> = operations[K]["responses"];
type SuccessStatus<K extends PathOperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204>;

/** The body of an operation's documented success answer: JSON, or text (CSV); `undefined` for a `204`. */
export type SuccessBodyOf<K extends PathOperationId> = Responses<K>[SuccessStatus<K>] extends {
  content: { "application/json": infer Body };
}
  ? Body
  : Responses<K>[SuccessStatus<K>] extends { content: { "text/csv": infer Text } }
    ? Text
    : undefined;

/**
 * The operations that answer without a credential: their security is `[]`, or has an empty
 * requirement among its alternatives. The server refuses to start when the spec says otherwise.
 */
export const anonymousOperationIds = [
  "getAuthHealth",
  "getHealth",
  "registerUser",
  "loginUser",
  "createWalletChallenge",
  "verifyWalletChallenge",
] as const satisfies readonly PathOperationId[];

export type AnonymousOperationId = (typeof anonymousOperationIds)[number];

/** The caller an operation sees: possibly anonymous where no credential is needed. */
export type CallerOf<K extends PathOperationId> = K extends AnonymousOperationId ? Caller : Principal;

/** What a handler receives: the caller and the request's inputs, already validated against the spec. */
export interface OperationInput<K extends PathOperationId> {
  principal: CallerOf<K>;
  path: PathParamsOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
}

/** Answers one operation: returns the body of its documented success answer. */
export type OperationHandler<K extends PathOperationId> = (
  ctx: DomainContext,
  input: OperationInput<K>,
) => SuccessBodyOf<K> | Promise<SuccessBodyOf<K>>;

/** What an operation that reads nothing stored gets: neither the store nor the caller's sandbox clock. */
export type StatelessContext = Omit<ServerContext, "store">;

/**
 * An operation that reads nothing stored, not even the caller's sandbox clock (which lives in the
 * store): the dispatch step runs it without reading the store, so that it answers while the
 * database is unavailable. The operation table lists it as `{ stateless: handler }`.
 */
export interface StatelessOperation<K extends PathOperationId> {
  stateless(ctx: StatelessContext, input: OperationInput<K>): SuccessBodyOf<K> | Promise<SuccessBodyOf<K>>;
}

/** One handler per operation of the spec: a missing one fails the type check. */
export type OperationHandlers = { [K in PathOperationId]: OperationHandler<K> | StatelessOperation<K> };
