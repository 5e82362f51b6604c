import type { Address } from "viem";
import type { components } from "../../generated/schema.d.ts";
import {
  ChainInputError,
  findToken,
  getOfficialContracts,
  type NetworkName,
  normalizeAddress,
  normalizePaymentReference,
  type OfficialContracts,
  type PaymentReference,
  parseDecimalAmount,
  requireSameNetwork,
  type TokenRecord,
} from "../chain/index.ts";

export type SecurePaymentDetails = components["schemas"]["SecurePaymentDetails"];

/** One payment of a link as the payer sees it, in base units: what the calldata must pay. */
export interface ExpectedPayment {
  requestId: string;
  payee: Address;
  token: TokenRecord;
  amount: bigint;
  feeAmount: bigint;
  /** `0x` and 16 lower-case hex digits. */
  paymentReference: PaymentReference;
}

/** What the token check promised, read into the values the transactions are checked against. */
export interface ExpectedLink {
  paymentType: "single" | "batch";
  network: NetworkName;
  contracts: OfficialContracts;
  payments: ExpectedPayment[];
  /** Where the fees go; null when the link has no fee. */
  feeAddress: Address | null;
}

/** The token check's answer lacks or garbles something the page must check against. */
export class LinkDetailsError extends Error {
  override name = "LinkDetailsError";
}

/** Runs a chain input check, reporting its rejection as a `LinkDetailsError` with the same message. */
function asLinkDetails<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ChainInputError) throw new LinkDetailsError(error.message);
    throw error;
  }
}

function readString(value: unknown, field: string): string {
  if (typeof value !== "string") throw new LinkDetailsError(`${field} is missing.`);
  return value;
}

function readAddress(value: unknown, field: string): Address {
  return asLinkDetails(() => normalizeAddress(readString(value, field), field));
}

function readReference(value: unknown, field: string): PaymentReference {
  if (typeof value !== "string") {
    throw new LinkDetailsError(
      `${field} is missing or malformed, so the payment reference of the transactions cannot be checked.`,
    );
  }
  return asLinkDetails(() => normalizePaymentReference(value, field));
}

function readAmount(value: unknown, token: TokenRecord, field: string): bigint {
  return asLinkDetails(() => parseDecimalAmount(readString(value, field), token.decimals, field));
}

function readToken(currencyId: unknown, network: NetworkName, field: string): TokenRecord {
  const token = typeof currencyId === "string" ? findToken(currencyId) : undefined;
  if (!token) throw new LinkDetailsError(`${field} ${String(currencyId)} is not a currency this page knows.`);
  asLinkDetails(() => requireSameNetwork(token, network, field));
  return token;
}

interface RawPayment {
  requestId: unknown;
  payee: unknown;
  amount: unknown;
  currency: unknown;
  reference: unknown;
  fee: unknown;
}

function rawPayments(details: SecurePaymentDetails): RawPayment[] {
  if (details.paymentType === "single") {
    return [
      {
        requestId: details.requestIds?.[0],
        payee: details.payee,
        amount: details.amount,
        currency: details.paymentCurrency,
        reference: details.paymentReference,
        fee: details.feeAmount,
      },
    ];
  }
  // Request API 0.31.0 makes the lists optional; payreq's server always sends them.
  const payees = details.payees ?? [];
  if (payees.length === 0) {
    throw new LinkDetailsError("payees is missing, so the page cannot tell whom the link pays.");
  }
  return payees.map((payee, index) => ({
    requestId: details.requestIds?.[index],
    payee,
    amount: details.amounts?.[index],
    currency: details.paymentCurrencies?.[index],
    reference: details.paymentReferences?.[index],
    fee: details.feeAmounts?.[index],
  }));
}

/**
 * Reads the token check's answer into exact expectations: base-unit amounts and fees from the
 * bundled token table, checksummed addresses, lower-case payment references and the network's
 * official contracts. Throws `LinkDetailsError` naming the field when something is missing.
 */
export function readExpectedLink(details: SecurePaymentDetails): ExpectedLink {
  const contracts = getOfficialContracts(details.network);
  if (!contracts) {
    throw new LinkDetailsError(
      `network ${details.network} has no official payment contracts this page knows.`,
    );
  }
  const network = details.network as NetworkName;
  const many = details.paymentType === "batch";
  const payments = rawPayments(details).map((raw, index): ExpectedPayment => {
    const at = (single: string, plural: string) => (many ? `${plural}[${index}]` : single);
    const token = readToken(raw.currency, network, at("paymentCurrency", "paymentCurrencies"));
    if (typeof raw.requestId !== "string") {
      throw new LinkDetailsError(
        `requestIds[${index}] is missing, so the page cannot tell which request it pays.`,
      );
    }
    return {
      requestId: raw.requestId,
      payee: readAddress(raw.payee, at("payee", "payees")),
      token,
      amount: readAmount(raw.amount, token, at("amount", "amounts")),
      // An answer without fee fields promises no fee: a fee in the calldata is then a mismatch.
      feeAmount: raw.fee === undefined ? 0n : readAmount(raw.fee, token, at("feeAmount", "feeAmounts")),
      paymentReference: readReference(raw.reference, at("paymentReference", "paymentReferences")),
    };
  });
  const feeAddress =
    details.feeAddress === undefined || details.feeAddress === null
      ? null
      : readAddress(details.feeAddress, "feeAddress");
  if (feeAddress === null && payments.some((payment) => payment.feeAmount > 0n)) {
    throw new LinkDetailsError("feeAddress is missing although the link has a fee.");
  }
  return { paymentType: details.paymentType, network, contracts, payments, feeAddress };
}
