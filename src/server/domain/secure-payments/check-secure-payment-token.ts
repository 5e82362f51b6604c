import { getAddress } from "viem";
import { chainIds, formatPayeeAddress, type NetworkName } from "../../../chain/index.ts";
import { invalidField } from "../../problems.ts";
import type { RequestRecord, SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import { type FeeSettings, resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadSecurePaymentForPayer } from "../shared/own-records.ts";
import { requireBothOrNeither } from "../shared/paired-inputs.ts";
import { loadRequests, paymentTokenOf } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { requirePayable } from "./payable-secure-payment.ts";
import { feeAmount, paymentAmount } from "./payment-amounts.ts";

const isNative = (request: RequestRecord) => paymentTokenOf(request).type === "ETH";

/** The payee destination of a request: its payee on its network, paid in its payment currency. */
function destinationOf(request: RequestRecord): Schemas["SecurePaymentDestination"] {
  const token = paymentTokenOf(request);
  const payeeAddress = formatPayeeAddress(request.payee, chainIds[token.network as NetworkName]);
  return {
    destinationId: `${payeeAddress}:${token.address}`,
    payeeAddress,
    tokenAddress: token.address,
    walletAddress: getAddress(request.payee),
    network: token.network,
  };
}

function toDetails(
  record: SecurePaymentRecord,
  requests: RequestRecord[],
  fee: FeeSettings,
): Schemas["SecurePaymentDetails"] {
  const common = {
    status: "pending" as const,
    requestIds: record.requestIds,
    network: record.network,
    reference: record.reference,
    redirectUrl: record.redirectUrl,
    redirectLabel: record.redirectLabel,
    branding: null,
    expiresAt: record.expiresAt,
    feePlan: null,
    feeAddress: fee.feeAddress ?? null,
  };
  const [only] = requests;
  if (requests.length === 1 && only) {
    return {
      paymentType: "single",
      ...common,
      payee: only.payee,
      amount: paymentAmount(only),
      paymentCurrency: only.paymentCurrency,
      isNativeCurrency: isNative(only),
      paymentReference: only.paymentReference,
      feeAmount: feeAmount(only, fee),
      destination: destinationOf(only),
    };
  }
  const native = requests.map(isNative);
  return {
    paymentType: "batch",
    ...common,
    payees: requests.map((request) => request.payee),
    amounts: requests.map(paymentAmount),
    paymentCurrencies: requests.map((request) => request.paymentCurrency),
    isNativeCurrency: native.every((value) => value === native[0]) ? (native[0] ?? false) : native,
    paymentReferences: requests.map((request) => request.paymentReference),
    feeAmounts: requests.map((request) => feeAmount(request, fee)),
    destinations: requests.map(destinationOf),
  };
}

/**
 * The token check: 200 with the details while the link can be paid, else the answers of
 * `requirePayable`. The details carry the payment references and the fee the
 * caller's pay calldata will hold, so that a payer page can check the transactions before the
 * payer signs them.
 */
export async function checkSecurePaymentToken(
  ctx: DomainContext,
  { principal, path: { token }, query }: OperationInput<"checkSecurePaymentToken">,
): Promise<Schemas["SecurePaymentDetails"]> {
  requireBothOrNeither(query, "/query", ["chain", "token"]);
  if (query.eoaWallet !== undefined && query.isSafe === "true") {
    throw invalidField("/query/isSafe", "cannot be true together with eoaWallet: a Safe holds its own funds");
  }
  const record = requirePayable(await loadSecurePaymentForPayer(ctx.store, token), ctx.clock.now());
  return toDetails(
    record,
    await loadRequests(ctx.store, record.requestIds),
    resolveFee({}, principal, "/query"),
  );
}
