import { getOfficialContracts, type PaymentContracts } from "../../chain/index.ts";
import type { DomainContext } from "./context.ts";

/** The contracts payments on `network` go through: the configured override, else the official ones. */
export function contractsFor(ctx: DomainContext, network: string): PaymentContracts {
  const contracts = ctx.contractOverrides[network] ?? getOfficialContracts(network);
  if (!contracts) throw new Error(`network ${network} has no payment contracts`);
  return contracts;
}
