// Public API: the typed client, its errors and normalisers, and the spec's types. What needs no
// viem is @payreq/client's surface (src/client-package); the normalisers below need viem.

export { type BatchPayout, type NormalisedBatchPayout, normaliseBatchPayout } from "./client/batch-payout.ts";
export * from "./client-package/index.ts";
export { readTypedData, type SignableTypedData, type TypedDataMember } from "./wire/typed-data.ts";
