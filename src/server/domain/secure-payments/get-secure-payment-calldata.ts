import { zeroAddress } from "viem";
import { invalidField } from "../../problems.ts";
import { buildBatchPayment, toBatchAnswer } from "../shared/batch-payment.ts";
import type { DomainContext } from "../shared/context.ts";
import { resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadSecurePaymentForPayer } from "../shared/own-records.ts";
import { buildSameChainCalldata, withBigNumberValues } from "../shared/pay-calldata.ts";
import { amountDue, loadRequests, paymentTokenOf } from "../shared/requests.ts";
import { checkWalletFunds } from "../shared/wallet-funds.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { requirePayable } from "./payable-secure-payment.ts";

/**
 * The calldata of a payable secure payment, found by its token (else the token check's 403, 404
 * or 409): a link of one request is paid like `GET /v2/request/{id}/pay` pays it, a link of
 * several by one batch call over the requests still due. The fee is the calling client ID's.
 */
export async function getSecurePaymentCalldata(
  ctx: DomainContext,
  { principal, path: { token }, query: { wallet } }: OperationInput<"getSecurePaymentCalldata">,
): Promise<Schemas["SecurePaymentCalldata"]> {
  if (wallet?.toLowerCase() === zeroAddress) {
    throw invalidField("/query/wallet", "must not be the zero address: name the wallet that pays");
  }
  const record = requirePayable(await loadSecurePaymentForPayer(ctx.store, token), ctx.clock.now());
  const fee = resolveFee({}, principal, "/query");
  const requests = await loadRequests(ctx.store, record.requestIds);

  const [only] = requests;
  if (record.requestIds.length === 1 && only) {
    const calldata = withBigNumberValues(
      await buildSameChainCalldata(ctx, {
        accountId: principal.accountId,
        request: only,
        token: paymentTokenOf(only),
        amount: amountDue(only),
        fee,
        wallet,
      }),
    );
    return {
      paymentType: "single",
      transactions: calldata.transactions,
      feeBundle: null,
      metadata: calldata.metadata,
      paymentReference: only.paymentReference,
      flow: record.kind === "payout" ? "outgoing" : "incoming",
    };
  }

  const due = requests.filter((request) => request.status !== "paid");
  const built = await buildBatchPayment(ctx, principal.accountId, due, fee, wallet);
  const funds = await checkWalletFunds(
    ctx,
    principal.accountId,
    wallet,
    record.network,
    built.payments.map((payment) => ({ token: payment.token, amount: payment.amount + payment.feeAmount })),
    built.approvals.length + 1,
  );
  return { ...toBatchAnswer(built), metadata: funds };
}
