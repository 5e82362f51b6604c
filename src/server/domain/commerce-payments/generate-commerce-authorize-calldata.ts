import type { Address } from "viem";
import { zeroAddress } from "viem";
import {
  encodeCommerceAuthorize,
  preApprovalPaymentCollectorAddresses,
} from "../../../chain/commerce-escrow.ts";
import { invalidField } from "../../problems.ts";
import type { CommercePaymentRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { findCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callerClientScope } from "../shared/principal.ts";
import { createRequestRecord, planRequest, storeNewRequest } from "../shared/requests.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { escrowWrapperOf, isEscrowAmount, sandboxOperator } from "./commerce-escrow-rules.ts";

type Body = Schemas["CommerceAuthorizeCalldataRequest"];
const day = 86_400;

/** The ERC-20 token of the body's currency, on a network with both the wrapper and the collector. */
function escrowTokenOf(body: Body) {
  const token = findCurrency(body.paymentCurrency);
  const networks = Object.keys(preApprovalPaymentCollectorAddresses).join(", ");
  if (token?.type !== "ERC20" || !preApprovalPaymentCollectorAddresses[token.network]) {
    throw invalidField(
      "/body/paymentCurrency",
      `must be an ERC-20 currency on a network of the commerce escrow (${networks}), got "${body.paymentCurrency}"`,
    );
  }
  return token;
}

/** The amounts and deadlines of the authorization, checked; defaults filled in from `now`. */
function termsOf(body: Body, nowSeconds: number) {
  const amount = BigInt(body.amount);
  if (amount === 0n || !isEscrowAmount(amount)) {
    throw invalidField("/body/amount", `must be above 0 and below 2^96, got "${body.amount}"`);
  }
  const maxAmount = body.maxAmount === undefined ? amount : BigInt(body.maxAmount);
  if (maxAmount < amount || !isEscrowAmount(maxAmount)) {
    throw invalidField(
      "/body/maxAmount",
      `must be at least amount (${body.amount}) and below 2^96, got "${body.maxAmount}"`,
    );
  }
  const preApprovalExpiry = body.preApprovalExpiry ?? nowSeconds + day;
  if (preApprovalExpiry <= nowSeconds) {
    throw invalidField(
      "/body/preApprovalExpiry",
      `must be in the future (now is ${nowSeconds}), got ${preApprovalExpiry}`,
    );
  }
  const authorizationExpiry = body.authorizationExpiry ?? preApprovalExpiry + day;
  if (authorizationExpiry < preApprovalExpiry) {
    throw invalidField(
      "/body/authorizationExpiry",
      `must not be before preApprovalExpiry (${preApprovalExpiry}), got ${authorizationExpiry}`,
    );
  }
  // Refunds stay possible for a week after the capture deadline, as in the service's examples.
  const refundExpiry = authorizationExpiry + 7 * day;
  return { amount, maxAmount, preApprovalExpiry, authorizationExpiry, refundExpiry };
}

function requireWallet(address: string, field: string): Address {
  if (address.toLowerCase() === zeroAddress)
    throw invalidField(`/body/${field}`, "must not be the zero address");
  return address as Address;
}

/**
 * Creates the request of a commerce payment (`PENDING`) and answers the wrapper's
 * `authorizePayment` call that holds the buyer's tokens in escrow for it.
 */
export async function generateCommerceAuthorizeCalldata(
  ctx: DomainContext,
  { principal, body }: OperationInput<"generateCommerceAuthorizeCalldata">,
): Promise<Schemas["CommerceAuthorizeCalldata"]> {
  const token = escrowTokenOf(body);
  const merchant = requireWallet(body.merchantAddress, "merchantAddress");
  const payer = requireWallet(body.buyerAddress, "buyerAddress");
  const now = ctx.clock.now();
  const terms = termsOf(body, Math.floor(now.getTime() / 1000));
  const amount = formatBaseUnits(terms.amount, token.decimals);
  const plan = planRequest(
    { payee: merchant, amount, invoiceCurrency: token.id, paymentCurrency: token.id },
    "/body",
  );
  const request = {
    ...createRequestRecord(plan, {
      accountId: principal.accountId,
      now,
      securePaymentToken: null,
      ...callerClientScope(principal),
    }),
    payer,
  };
  const at = now.toISOString();
  const payment: CommercePaymentRecord = {
    requestId: request.requestId,
    accountId: principal.accountId,
    merchantId: body.merchantId,
    network: token.network,
    paymentCurrency: token.id,
    token: token.address as Address,
    payer,
    merchant,
    operator: sandboxOperator,
    paymentReference: request.paymentReference,
    status: "PENDING",
    amount: terms.amount.toString(),
    maxAmount: terms.maxAmount.toString(),
    capturedAmount: "0",
    voidedAmount: "0",
    preApprovalExpiry: String(terms.preApprovalExpiry),
    authorizationExpiry: String(terms.authorizationExpiry),
    refundExpiry: String(terms.refundExpiry),
    voidReason: null,
    events: [],
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.withTransaction(async (tx) => {
    await storeNewRequest(tx, request, { securePaymentToken: null }, at);
    await tx.commercePayments.put(payment);
  });
  const data = encodeCommerceAuthorize({
    paymentReference: payment.paymentReference,
    payer,
    merchant,
    operator: payment.operator,
    token: payment.token,
    amount: terms.amount,
    maxAmount: terms.maxAmount,
    preApprovalExpiry: BigInt(terms.preApprovalExpiry),
    authorizationExpiry: BigInt(terms.authorizationExpiry),
    refundExpiry: BigInt(terms.refundExpiry),
    tokenCollector: preApprovalPaymentCollectorAddresses[token.network] as Address,
    collectorData: "0x",
  });
  return {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    to: escrowWrapperOf(token.network),
    data,
    value: "0",
    description: `Authorize ${amount} ${token.symbol} from ${payer} into escrow for ${merchant}`,
  };
}
