/** Stable reasons for rejecting a chain input, for callers that map them to problem types. */
export type ChainInputErrorCode =
  | "invalid_format"
  | "too_many_decimals"
  | "out_of_range"
  | "invalid_address"
  | "missing_fee_address"
  | "network_mismatch"
  | "unsupported_network"
  | "empty_batch";

/** An input the chain module cannot use; `field` names it and `message` says how to fix it. */
export class ChainInputError extends Error {
  override readonly name = "ChainInputError";
  readonly field: string;
  readonly code: ChainInputErrorCode;

  constructor(field: string, code: ChainInputErrorCode, message: string) {
    super(message);
    this.field = field;
    this.code = code;
  }
}
