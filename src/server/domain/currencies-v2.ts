import type { OperationInput } from "../operations/operation-types.ts";
import { listConversionRoutes } from "./conversion.ts";
import { listCurrencies } from "./currencies.ts";
import type { DomainContext } from "./shared/context.ts";

// The v2 paths of the currency operations: one contract and one currency table for both paths,
// so each v2 operation answers exactly what its v1 twin answers. The inputs are spread because
// TypeScript compares OperationInput<K> by its operationId, not by the (identical) parameters.

/** `GET /v2/currencies`: what `GET /v1/currencies` answers for the same filters. */
export function listCurrenciesV2(ctx: DomainContext, input: OperationInput<"listCurrenciesV2">) {
  return listCurrencies(ctx, { ...input });
}

/** `GET /v2/currencies/{currencyId}/conversion-routes`: what the v1 path answers. */
export function listConversionRoutesV2(ctx: DomainContext, input: OperationInput<"listConversionRoutesV2">) {
  return listConversionRoutes(ctx, { ...input });
}
