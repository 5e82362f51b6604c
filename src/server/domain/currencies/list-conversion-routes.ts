import { type TokenRecord, tokenTable } from "../../../chain/index.ts";
import { invalidField, notFound } from "../../problems.ts";
import { isPricedFiat, rateOf } from "../shared/conversion.ts";
import { findCurrency } from "../shared/currencies.ts";
import type { OperationInput, StatelessContext } from "../shared/operation-types.ts";

/**
 * The currencies a request invoiced in `currencyId` can be paid with, on `network` or on any of
 * `networks` (one or the other). 404 for an unknown currency.
 */
export function listConversionRoutes(_ctx: StatelessContext, input: OperationInput<"listConversionRoutes">) {
  const { currencyId } = input.path;
  const { network, networks } = input.query;
  if (network !== undefined && networks !== undefined) {
    throw invalidField("/query/networks", "cannot be sent together with network; send one or the other");
  }
  let routes: TokenRecord[];
  const fiat = currencyId.toUpperCase();
  if (isPricedFiat(fiat)) routes = tokenTable.filter((token) => rateOf(fiat, token) !== undefined);
  else {
    const token = findCurrency(currencyId);
    if (!token) throw notFound(`No currency has the id or fiat code '${currencyId}'.`);
    routes = [token];
  }
  if (network !== undefined) {
    return { currencyId, network, conversionRoutes: routes.filter((t) => t.network === network) };
  }
  if (networks !== undefined) {
    const wanted = networks.split(",");
    return {
      currencyId,
      networks: wanted,
      conversionRoutes: routes.filter((t) => wanted.includes(t.network)),
    };
  }
  return { currencyId, network: null, conversionRoutes: routes };
}

// As for the currency list (list-currencies.ts): the v2 path answers what the v1 path answers,
// and its input is spread for TypeScript.

/** `GET /v2/currencies/{currencyId}/conversion-routes`: what the v1 path answers. */
export function listConversionRoutesV2(
  ctx: StatelessContext,
  input: OperationInput<"listConversionRoutesV2">,
) {
  return listConversionRoutes(ctx, { ...input });
}
