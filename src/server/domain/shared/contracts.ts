import { type PaymentContracts, resolveContracts } from "../../../chain/index.ts";
import type { DomainContext } from "./context.ts";

/** The contracts payments on `network` go through: the configured override, else the official ones. */
export function contractsFor(ctx: DomainContext, network: string): PaymentContracts {
  return resolveContracts(network, ctx.contractOverrides[network]);
}
