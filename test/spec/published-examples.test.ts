import { expect, it } from "vitest";
import { readPathOperations } from "../../src/spec/operations.ts";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { describeUnless } from "../support/describe-unless.ts";
import {
  type PublishedExample,
  readPublishedExamples,
  referenceMissingReason,
  unnamedTemplate,
} from "../support/published-examples.ts";

// Every example the service publishes for the operations of our spec (its request bodies
// and its answers, errors included) must validate against our spec, so that the contract suite
// accepts what the real service sends. Values the published documents elide or fill with
// placeholders are replaced by a well-formed stand-in first; each replacement is listed here, with
// why, and each must still be needed (an unused one fails the test).
const placeholders: { matches: (value: string) => boolean; standIn: string; why: string }[] = [
  {
    matches: (value) => /^0x[0-9a-fA-F]*\.\.\.[0-9a-fA-F]*$/.test(value),
    standIn: "0x",
    why: "calldata elided with '...' (0x095ea7b3..., 0xb868980b...00)",
  },
  {
    matches: (value) => value === "01ABC123DEF456GHI789JKL",
    standIn: "01KM9S346Q3D25VT4F5V37E3S3",
    why: "a made-up secure payment token: 23 characters with I and L, not a ULID",
  },
  {
    matches: (value) =>
      value === "0x11BF2fDA23bF0A98365e1A4e04A87C9339e8687" ||
      value === "0xA0b86a33E6441b8c4C8C8C8C8C8C8C8C8C8C8C8",
    standIn: "0xe11BF2fDA23bF0A98365e1A4e04A87C9339e8687",
    why: "addresses with 39 hex digits: a fee proxy address missing a digit, and a filler",
  },
  {
    matches: (value) => value === "0x9999888877776666555544443333222211110000ffffeeeedddcccbbbaaa999",
    standIn: "0x9999888877776666555544443333222211110000ffffeeeeddddccccbbbbaaaa",
    why: "a transaction hash with 63 hex digits: a countdown filler missing a digit",
  },
  {
    matches: (value) => /^0x(1234567890abcdef){6}1b$/.test(value),
    standIn:
      "0xe7c0a9a3b30eea0c385e438ecc7767cd418b6136df37fcf2748d18efedb886311f0b1cbaa96843f62f42f23568e9a8c62387decef836829b92538d22f40e2ca61c",
    why: "a made-up permit signature: 1234567890abcdef repeated, 49 bytes where a signature has 65",
  },
  {
    matches: (value) => /^01(JOURNEY|EVENT)ULID1234567890ABCDE[FG]$/.test(value),
    standIn: "01KMA2Q8W3V6X9Z1B4C7D0E5F8",
    why: "journey and step ids spelt out as words: 27 to 29 characters with U, L and O, not ULIDs",
  },
  {
    matches: (value) => value === "01HXYZABCDEF1234567890QWERTYUIOP",
    standIn: "015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9",
    why: "a made-up request id: 32 letters and digits where a request id has 01 and 64 hex digits",
  },
];

// Published examples that lack a member the service's newer contract (0.31.0) requires of the same
// answer, which our spec follows: each is checked with that member added, and each must still be
// needed.
const crossChainMembers = {
  transactions: [{ to: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9", data: "0x", value: "0x0" }],
  metadata: {
    stepsRequired: 1,
    needsApproval: false,
    paymentTransactionIndex: 0,
    hasEnoughBalance: true,
    routeType: "crosschain",
  },
};
const crossChainWhy =
  "0.31.0's cross-chain pay answer requires transactions and metadata (stepsRequired, needsApproval, paymentTransactionIndex, hasEnoughBalance, routeType); older answers carried a payment intent only";
const newerRequired: {
  operations: string[];
  kind: number;
  names: string[];
  members: Record<string, unknown>;
  why: string;
}[] = [
  {
    operations: ["GET /v2/request/{}/pay", "GET /v1/request/{}/pay"],
    kind: 200,
    names: ["currencyThatSupportsEIP2612", "currencyThatDoesNotSupportEIP2612"],
    members: crossChainMembers,
    why: crossChainWhy,
  },
  {
    operations: ["POST /v2/payouts"],
    kind: 201,
    names: ["recurringPayment"],
    members: { requestId: "01a4c7e2b9d05f3816e4a2c9b7d1f05e83a6c2d4b9e17f0a5c3d8b26e4f9a1c07d" },
    why: "0.31.0 requires requestId of every POST /v2/payouts answer; even its own recurring example leaves it out",
  },
];
const usedNewerRequired = new Set<number>();

/** The example with the members a newer contract requires of it, when it lacks them. */
function withNewerRequired(example: PublishedExample, value: unknown): unknown {
  const index = newerRequired.findIndex(
    (entry) =>
      entry.operations.includes(example.operation) &&
      entry.kind === example.kind &&
      entry.names.includes(example.name),
  );
  if (index < 0 || !isPlainObject(value)) return value;
  const added = withMissing(value, newerRequired[index]?.members ?? {});
  if (JSON.stringify(added) !== JSON.stringify(value)) usedNewerRequired.add(index);
  return added;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `value` with each member of `members` it lacks, one object level down too (inside `metadata`). */
function withMissing(
  value: Record<string, unknown>,
  members: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...value };
  for (const [key, member] of Object.entries(members)) {
    const current = result[key];
    if (current === undefined) result[key] = member;
    else if (isPlainObject(current) && isPlainObject(member)) result[key] = { ...member, ...current };
  }
  return result;
}

// Answers of older versions that Request API 0.31.0 changed, and our spec follows 0.31.0: each
// must still fail, with why.
const beforeBatchRequests =
  "a batch payout answer from before Request API 0.31.0, which requires requests (one per request paid)";
const superseded: Record<string, string> = Object.fromEntries(
  ["upstream-openapi.v2.json", "upstream-openapi.v0.11.1.json", "upstream-openapi.2025-09.yaml"].flatMap(
    (document) =>
      ["erc20_and_eth_with_approval", "erc20_and_eth_no_approval"].map((name) => [
        `${document} POST /v2/payouts/batch 201 ${name}`,
        beforeBatchRequests,
      ]),
  ),
);

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const servedOperations = new Map(
  readPathOperations(spec)
    .filter((operation) => !operation.key.startsWith("/sandbox/"))
    .map((operation) => [unnamedTemplate(operation.method, operation.key), operation]),
);
const examples = referenceMissingReason ? [] : readPublishedExamples(new Set(servedOperations.keys()));
const used = new Set<number>();

/** A copy of a value with every placeholder string replaced by its stand-in. */
function withStandIns(value: unknown): unknown {
  if (typeof value === "string") {
    const index = placeholders.findIndex((placeholder) => placeholder.matches(value));
    if (index < 0) return value;
    used.add(index);
    return placeholders[index]?.standIn;
  }
  if (Array.isArray(value)) return value.map(withStandIns);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, withStandIns(member)]));
  }
  return value;
}

/** Our schema for a published example: the request body's, or the answer's for its status and media type. */
function ourSchema(example: PublishedExample): unknown {
  const operation = servedOperations.get(example.operation);
  if (example.kind === "request") return operation?.body?.schema;
  return operation?.responses[String(example.kind)]?.content[example.mediaType]?.schema;
}

const label = (example: PublishedExample) =>
  `${example.document} ${example.operation} ${example.kind === "request" ? "request body" : example.kind} ${example.name}`;

describeUnless(referenceMissingReason, "the service's published examples of the operations we serve", () => {
  it("are found: requests and answers of the operations, successes and errors", () => {
    expect(examples.length).toBeGreaterThanOrEqual(80);
    const operations = new Set(examples.map((example) => example.operation));
    for (const operation of [
      "GET /v1/currencies",
      "GET /v1/currencies/{}/conversion-routes",
      "GET /v1/request/{}/routes",
      "POST /v1/payer/{}/payment-details",
      "POST /v2/payer",
      "GET /v2/request/{}/pay",
      "POST /v2/payouts/batch",
      "PATCH /v2/payouts/recurring/{}",
      "POST /v2/secure-payments",
      "GET /v2/secure-payments/{}",
      "GET /v2/request/{}",
      "POST /v2/payouts",
      "GET /v2/payouts/recurring/{}",
      "POST /v2/payouts/recurring/{}",
      "GET /v2/payments",
      "GET /v2/secure-payments",
    ]) {
      expect(operations, operation).toContain(operation);
    }
    expect(examples.some((example) => example.kind === "request")).toBe(true);
    expect(examples.some((example) => typeof example.kind === "number" && example.kind >= 400)).toBe(true);
  });

  it.each(examples.map((example) => [label(example), example] as const))(
    "%s validates against our spec",
    (_, example) => {
      const schema = ourSchema(example);
      expect(schema, `our spec documents no ${example.mediaType} body here`).toBeDefined();
      const value = withNewerRequired(example, withStandIns(example.value));
      const errors = describeErrors(validator.errorsFor(schema, value));
      const why = superseded[label(example)];
      if (why === undefined) expect(errors).toBe("");
      else expect(errors, why).toMatch(/must have required property 'requests'/);
    },
  );

  it("needs every member added for the newer contract", () => {
    expect([...usedNewerRequired].sort().map((index) => newerRequired[index]?.why)).toEqual(
      newerRequired.map((entry) => entry.why),
    );
  });

  it("needs every stand-in of the list, and no other", () => {
    expect([...used].sort().map((index) => placeholders[index]?.why)).toEqual(
      placeholders.map((placeholder) => placeholder.why),
    );
  });
});
