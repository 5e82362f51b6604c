import { computeFeeAmount } from "../../../chain/index.ts";
import type { RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { FeeSettings } from "../shared/fees.ts";
import { paymentTokenOf } from "../shared/requests.ts";

const decimalsOf = (request: RequestRecord) => paymentTokenOf(request).decimals;

/** What a request is to be paid, in its payment currency, as a human-readable decimal. */
export function paymentAmount(request: RequestRecord): string {
  return formatBaseUnits(request.expectedAmount, decimalsOf(request));
}

/** The fee the caller's pay calldata adds to a request, as a decimal in its payment currency. */
export function feeAmount(request: RequestRecord, fee: FeeSettings): string {
  return formatBaseUnits(
    computeFeeAmount(BigInt(request.expectedAmount), fee.feePercentage),
    decimalsOf(request),
  );
}
