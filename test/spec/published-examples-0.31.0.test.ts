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

// Request API 0.31.0's examples, requests and answers, of every operation we serve, must validate
// against our spec. The ones that cannot are listed below with why (each listed one must still
// fail, so that the list stays true); docs/differences.md names them too.
const madeUpToken = "a made-up token, 01ABC123DEF456GHI789JKL: 23 characters with I and L, not a ULID";
const elidedCalldata = "calldata elided with '...' (0x095ea7b3...ff, 0x92cddb91...), not hex";
const elidedPayCalldata =
  "calldata elided with '...' (0xb868980b...00) and a contract address of 39 hex digits";
const ulidOf27 = "an id of 27 characters (01JBQ8N5W2K3R7YJ8N6R4T7V9XD) where a ULID has 26";
const madeUpJourney =
  "made-up ids: the journey 01JOURNEYULID1234567890ABCDEF (29 characters, not a ULID) and the request 01HXYZABCDEF1234567890QWERTYUIOP (not 66 hex digits)";
const commercePlaceholders =
  "placeholders where the schema it publishes has values: the request 0x1234567890abcdef, addresses such as 0xPayerAddress and 0xEscrowContractAddress, the hash 0xHash";
const malformed: Record<string, string> = {
  "POST /v2/secure-payments 201 singlePayment": madeUpToken,
  "POST /v2/secure-payments 201 batchPayment": madeUpToken,
  "GET /v2/secure-payments 200 found": madeUpToken,
  "POST /v2/payouts 201 nativeCurrency": elidedCalldata,
  "POST /v2/payouts 201 erc20Token": elidedCalldata,
  "POST /v2/payouts 201 recurringPayment": elidedCalldata,
  "POST /v2/payouts/batch 201 erc20_and_eth_with_approval": elidedCalldata,
  "POST /v2/payouts/batch 201 erc20_and_eth_no_approval": elidedCalldata,
  "POST /v2/payouts/batch 201 without_payer_metadata_absent": elidedCalldata,
  "POST /v2/payouts/recurring/{} request body schema example":
    "a made-up permit signature: 1234567890abcdef repeated, 49 bytes where a signature has 65",
  "PATCH /v2/payouts/recurring/{} 200 cancelled":
    "a transaction to 0xA0b86a33E6441b8c4C8C8C8C8C8C8C8C8C8C8C8, an address of 39 hex digits",
  "GET /v1/request/{}/pay 200 native": elidedPayCalldata,
  "GET /v1/request/{}/pay 200 token": elidedPayCalldata,
  "GET /v2/request/{}/pay 200 native": elidedPayCalldata,
  "GET /v2/request/{}/pay 200 token": elidedPayCalldata,
  "POST /v1/pay 201 nativeCurrency": elidedPayCalldata,
  "POST /v1/pay 201 erc20Token": elidedPayCalldata,
  "GET /v2/payments 200 searchByMerchantReference":
    "a source transaction hash of 63 hex digits (0x9999888877776666555544443333222211110000ffffeeeedddcccbbbaaa999)",
  "POST /v2/journey request body withRequestId": madeUpJourney,
  "POST /v2/journey 201 default": madeUpJourney,
  "POST /v2/journey/{} 201 default": madeUpJourney,
  "GET /v2/journey/{} 200 default": madeUpJourney,
  "POST /v2/commerce-payments/authorize/calldata 201 success": `${commercePlaceholders}; and members (calldata, operator) other than those of the schema it publishes for this answer (data, description)`,
  "GET /v2/commerce-payments/{}/status 200 authorized": commercePlaceholders,
  "POST /v2/commerce-payments/{}/authorize 200 success": commercePlaceholders,
  "POST /v2/commerce-payments/{}/capture/calldata request body schema example": commercePlaceholders,
  "POST /v2/commerce-payments/{}/capture/calldata 200 success": commercePlaceholders,
  "POST /v2/commerce-payments/{}/void/calldata 200 success": commercePlaceholders,
  "POST /v2/commerce-payments/{}/capture request body schema example": commercePlaceholders,
  "POST /v2/commerce-payments/{}/capture 200 success": commercePlaceholders,
  "POST /v2/commerce-payments/{}/void 200 success": commercePlaceholders,
  "POST /v2/orchestrators 201 default": ulidOf27,
  "POST /v2/orchestrators/client-id-link-intents 201 default": ulidOf27,
  "POST /v2/orchestrators/fee-configs 201 orchestratorDefault": ulidOf27,
  "POST /v2/orchestrators/fee-configs 201 clientIdOverride": ulidOf27,
  "GET /v2/orchestrators/fee-configs 200 default": ulidOf27,
  "PATCH /v2/orchestrators/fee-configs/{} 200 default": ulidOf27,
  "DELETE /v2/orchestrators/fee-configs/{} 200 default": ulidOf27,
  "POST /v2/orchestrators/branding 201 orchestratorLevel": ulidOf27,
  "POST /v2/orchestrators/branding 201 clientIdOverride": ulidOf27,
  "GET /v2/orchestrators/branding 200 default": ulidOf27,
  "PATCH /v2/orchestrators/branding 200 default": ulidOf27,
};

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const served = new Map(
  readPathOperations(spec).map((operation) => [unnamedTemplate(operation.method, operation.key), operation]),
);
const examples = referenceMissingReason
  ? []
  : readPublishedExamples(new Set(served.keys()), ["upstream-openapi.0.31.0.json"]);

function ourSchema(example: PublishedExample): unknown {
  const operation = served.get(example.operation);
  if (example.kind === "request") return operation?.body?.schema;
  return operation?.responses[String(example.kind)]?.content[example.mediaType]?.schema;
}

const label = (example: PublishedExample) =>
  `${example.operation} ${example.kind === "request" ? "request body" : example.kind} ${example.name}`;

describeUnless(
  referenceMissingReason,
  "Request API 0.31.0's examples of every operation it publishes",
  () => {
    it("are found, for the new operations too", () => {
      const operations = new Set(examples.map((example) => example.operation));
      for (const operation of [
        "POST /v2/secure-payments",
        "GET /v2/secure-payments/{}",
        "POST /v2/secure-payments/{}/events",
        "POST /v2/secure-payments/{}/multicall-intent",
        "POST /v2/payouts/batch",
      ]) {
        expect(operations, operation).toContain(operation);
      }
    });

    it.each(examples.map((example) => [label(example), example] as const))("%s", (name, example) => {
      const schema = ourSchema(example);
      expect(schema, `our spec documents no ${example.mediaType} body here`).toBeDefined();
      const errors = describeErrors(validator.errorsFor(schema, example.value));
      if (name in malformed) expect(errors, malformed[name]).not.toBe("");
      else expect(errors).toBe("");
    });

    it("lists only examples it has", () => {
      expect(
        Object.keys(malformed).filter((name) => !examples.some((example) => label(example) === name)),
      ).toEqual([]);
    });
  },
);
