import { chainIds, type NetworkName } from "../../../chain/index.ts";
import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { requirePayable } from "./payable-secure-payment.ts";

/**
 * Checks a bridge route step against a payable secure payment of the caller's account, as the service does before it
 * asks its bridge aggregator for the step again. The sandbox runs no bridge and its calldata
 * quotes no route steps, so a step that passes the checks names a route that is not available:
 * the service's answer for a route it can no longer build.
 */
export async function refreshSecurePaymentStepTransaction(
  ctx: DomainContext,
  { principal, path: { token }, body: { step } }: OperationInput<"refreshSecurePaymentStepTransaction">,
): Promise<undefined> {
  const record = requirePayable(await loadOwnSecurePayment(ctx.store, principal, token), ctx.clock.now());
  const chainId = chainIds[record.network as NetworkName];
  if (step.action.toChainId !== chainId) {
    throw invalidField(
      "/body/step/action/toChainId",
      `is ${step.action.toChainId}, but the secure payment is paid on ${record.network} (chain ${chainId}): the step must arrive there`,
    );
  }
  throw invalidField(
    "/body/step/id",
    `names a route step of ${step.tool} that is not available: the sandbox runs no bridge and quotes no route steps; pay the link on ${record.network}`,
  );
}
