import {
  computeFeeAmount,
  findToken,
  listTokens,
  parseDecimal,
  type TokenRecord,
} from "../../../chain/index.ts";
import { invalidField } from "../../problems.ts";
import { formatBaseUnits, readAmount } from "../shared/amounts.ts";
import { isAtParWith } from "../shared/conversion.ts";
import { resolveFee } from "../shared/fees.ts";
import type { OperationInput, StatelessContext } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";

type FeePreview = Schemas["SecurePaymentFeePreview"];
type Bearer = FeePreview["defaultFeeBearer"];

/** USD amounts are computed at this many decimals, then written without trailing zeros. */
const usdDecimals = 18;

/** The dollar stablecoin that `currency` names, by symbol or by currency identifier. */
function requireDollarStablecoin(currency: string): TokenRecord {
  const token = findToken(currency) ?? listTokens({ symbol: currency })[0];
  if (!token || !isAtParWith("USD", token)) {
    throw invalidField(
      "/body/currency",
      `is not a dollar stablecoin the service lists, got "${currency}": fees are planned in USD`,
    );
  }
  return token;
}

/** A percentage as basis points, exactly: "2.5" -> 250, "0.07" -> 7. */
function basisPoints(percentage: string): number {
  const parsed = parseDecimal(percentage);
  return parsed ? Number(formatBaseUnits(parsed.units * 100n, parsed.scale)) : 0;
}

/**
 * The fee plan a secure payment would get, computed and never stored. The only fee payreq knows
 * is the calling client ID's (`feePercentage` to `feeAddress`), borne by the flow's default
 * bearer (the payee when getting paid, the payer when paying) unless `defaultFeeBearer` says who.
 */
export async function previewSecurePaymentFees(
  _ctx: StatelessContext,
  { principal, body }: OperationInput<"previewSecurePaymentFees">,
): Promise<FeePreview> {
  requireDollarStablecoin(body.currency);
  const amount = readAmount(body.amount, usdDecimals);
  if (!amount.ok) throw invalidField("/body/amount", amount.message);
  const bearer: Bearer = body.defaultFeeBearer ?? (body.flow === "get_paid" ? "payee" : "payer");
  const fee = resolveFee({}, principal, "/body");
  const feeUnits = computeFeeAmount(amount.units, fee.feePercentage);
  const usd = (units: bigint) => formatBaseUnits(units, usdDecimals);
  const payerBorne = bearer === "payer" ? feeUnits : 0n;
  const payeeBorne = bearer === "payee" ? feeUnits : 0n;
  const fees: FeePreview["fees"] =
    fee.feePercentage === undefined || fee.feeAddress === undefined
      ? []
      : [
          {
            type: "platform",
            label: "Client ID fee",
            feeBearer: bearer,
            feeBearerSource:
              body.defaultFeeBearer === undefined ? "flow_default" : "payment_default_override",
            percentageBps: basisPoints(fee.feePercentage),
            capUsd: null,
            calculatedAmountUsd: usd(feeUnits),
            destinationResolver: "client_id_fee_address",
            destinationRef: { evmAddress: fee.feeAddress },
            configSource: "client_id",
          },
        ];
  return {
    version: 1,
    flow: body.flow,
    defaultFeeBearer: bearer,
    grossAmountUsd: usd(amount.units),
    netRecipientAmountUsd: usd(amount.units - payeeBorne),
    payerTotalAmountUsd: usd(amount.units + payerBorne),
    totalFeesUsd: usd(feeUnits),
    payeeBorneFeesUsd: usd(payeeBorne),
    payerBorneFeesUsd: usd(payerBorne),
    fees,
  };
}
