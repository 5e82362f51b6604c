import { validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import { percentageToFraction, readAmount } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { crossChainSources, rescale } from "../shared/cross-chain-intent.ts";
import { resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequest, loadOwnRequestByReference } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { paymentTokenOf, remainingAmount } from "../shared/requests.ts";
import { balanceOf } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";

type RoutesQuery = OperationInput<"listRequestRoutes">["query"];

/** The sandbox's stand-in for a bridge's settlement time, in seconds. */
const sandboxBridgeSeconds = 60;

/** What the routes price: the `amount` query parameter, else what is left of the request. */
function amountToRoute(query: RoutesQuery, request: RequestRecord): bigint {
  const token = paymentTokenOf(request);
  if (query.amount === undefined) return remainingAmount(request);
  const reading = readAmount(query.amount, token.decimals, token.id);
  if (!reading.ok) throw validationFailed([{ path: "/query/amount", message: reading.message }]);
  return reading.units;
}

/**
 * The routes of one request for one wallet. The sandbox knows no bridge fees: it offers the direct
 * payment in the request's own currency and network, plus a cross-chain route from each bridged
 * USDC or USDT balance in the wallet book that covers the amount, each with the fee of
 * `feePercentage` as a fraction.
 */
async function routesFor(
  ctx: DomainContext,
  request: RequestRecord,
  query: RoutesQuery,
  principal: Principal,
): Promise<Schemas["PaymentRoutes"]> {
  const fee = resolveFee(query, principal, "/query");
  const fraction = fee.feePercentage === undefined ? 0 : percentageToFraction(fee.feePercentage);
  const token = paymentTokenOf(request);
  const amount = amountToRoute(query, request);
  const routes: Schemas["PaymentRoute"][] = [
    {
      id: "REQUEST_NETWORK_PAYMENT",
      fee: fraction,
      speed: "FAST",
      price_impact: 0,
      chain: request.network.toUpperCase(),
      token: token.symbol,
    },
  ];
  for (const source of crossChainSources(token)) {
    const held = await balanceOf(ctx.store, principal.accountId, query.wallet, source.token.id);
    if (held === 0n || held < rescale(amount, token, source.token)) continue;
    routes.push({
      id: `${source.chain}_${request.network.toUpperCase()}_${source.symbol}_${token.symbol}`,
      fee: fraction,
      speed: sandboxBridgeSeconds,
      price_impact: 0,
      chain: source.chain,
      token: source.symbol,
    });
  }
  return { routes };
}

/** The routes for one of the caller's requests, found by payment reference (with or without `0x`). */
export async function listPaymentRoutes(
  ctx: DomainContext,
  { principal, path: { paymentReference }, query }: OperationInput<"listPaymentRoutes">,
): Promise<Schemas["PaymentRoutes"]> {
  const request = await loadOwnRequestByReference(ctx.store, principal, paymentReference);
  return routesFor(ctx, request, query, principal);
}

/** The routes for one of the caller's requests, found by id: the same routes as by reference. */
export async function listRequestRoutes(
  ctx: DomainContext,
  { principal, path: { requestId }, query }: OperationInput<"listRequestRoutes">,
): Promise<Schemas["PaymentRoutes"]> {
  return routesFor(ctx, await loadOwnRequest(ctx.store, principal, requestId), query, principal);
}
