import {
  buildPaymentTransactions,
  computeFeeAmount,
  type NetworkName,
  type TokenRecord,
} from "../../../chain/index.ts";
import { transactionValueToBigInt } from "../../../wire/transaction-value.ts";
import { validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import { readAmount } from "./amounts.ts";
import type { DomainContext } from "./context.ts";
import { contractsFor } from "./contracts.ts";
import { buildCrossChainIntent, isCrossChain } from "./cross-chain-intent.ts";
import { type FeeSettings, resolveFee } from "./fees.ts";
import type { OperationInput } from "./operation-types.ts";
import { loadOwnPayer, loadOwnPaymentDetail, loadOwnRequest } from "./own-records.ts";
import { requireBothOrNeither } from "./paired-inputs.ts";
import type { Principal } from "./principal.ts";
import { amountDue, paymentTokenOf } from "./requests.ts";
import { toBigNumberJson, toWireTransaction } from "./transaction-wire.ts";
import { allowanceOf } from "./wallet-book.ts";
import { checkWalletFunds } from "./wallet-funds.ts";
import type { Schemas } from "./wire-types.ts";

type PayCalldataQuery = OperationInput<"getPayCalldata">["query"];

/** The amount to pay in base units: the `amount` query parameter, else what is left of the request. */
function amountToPay(query: PayCalldataQuery, request: RequestRecord, token: TokenRecord): bigint {
  if (query.amount === undefined) return amountDue(request);
  const reading = readAmount(query.amount, token.decimals, token.id);
  if (!reading.ok) throw validationFailed([{ path: "/query/amount", message: reading.message }]);
  if (reading.units > 0n) return reading.units;
  throw validationFailed([
    { path: "/query/amount", message: `must be greater than 0, got "${query.amount}"` },
  ]);
}

/** The off-ramp's payer and bank account, when named: both must be the caller's. */
async function requireOffRamp(ctx: DomainContext, principal: Principal, query: PayCalldataQuery) {
  if (query.clientUserId === undefined || query.paymentDetailsId === undefined) return;
  await loadOwnPayer(ctx.store, principal, query.clientUserId);
  await loadOwnPaymentDetail(ctx.store, principal, query.clientUserId, query.paymentDetailsId);
}

/**
 * The calldata that pays one request: a cross-chain payment intent when `chain` and `token` name
 * another source, else the same-chain transactions, with metadata read from the wallet book.
 * `getPayCalldata` answers it, and `createPayout` builds a one-off payout's calldata with it.
 */
export async function buildPayCalldata(
  ctx: DomainContext,
  { principal, path: { requestId }, query }: OperationInput<"getPayCalldata">,
): Promise<Schemas["PayCalldata"] | Schemas["CrossChainPayCalldata"]> {
  const request = await loadOwnRequest(ctx.store, principal, requestId);
  const token = paymentTokenOf(request);

  requireBothOrNeither(query, "/query", ["chain", "token"], ["clientUserId", "paymentDetailsId"]);
  const fee = resolveFee(query, principal, "/query");
  const amount = amountToPay(query, request, token);
  await requireOffRamp(ctx, principal, query);

  if (
    query.chain !== undefined &&
    query.token !== undefined &&
    isCrossChain(query.chain, query.token, token)
  ) {
    return buildCrossChainIntent(ctx, {
      accountId: principal.accountId,
      request,
      token,
      amount,
      chain: query.chain,
      sourceSymbol: query.token,
      wallet: query.wallet,
    });
  }

  const sameChain = await buildSameChainCalldata(ctx, {
    accountId: principal.accountId,
    request,
    token,
    amount,
    fee,
    wallet: query.wallet,
  });
  return withBigNumberValues(sameChain);
}

/** The contract's same-chain answer carries every value as an ethers BigNumber object. */
export function withBigNumberValues<T extends { transactions: Schemas["PayCalldata"]["transactions"] }>(
  calldata: T,
): T {
  return {
    ...calldata,
    transactions: calldata.transactions.map((transaction, index) => ({
      ...transaction,
      value: toBigNumberJson(transactionValueToBigInt(transaction.value, `transactions[${index}].value`)),
    })),
  };
}

/** Same-chain pay calldata as the reference server builds it: it always names the payment's index. */
export type SameChainCalldata = Schemas["PayCalldata"] & {
  metadata: { paymentTransactionIndex: number };
};

/** One request's payment on its own network: how much, with which fee, from which wallet if known. */
export interface SameChainPayment {
  /** The caller's account, whose wallet book is read. */
  accountId: string;
  request: RequestRecord;
  token: TokenRecord;
  amount: bigint;
  fee: FeeSettings;
  wallet: string | undefined;
}

/**
 * The same-chain transactions that pay `amount` of a request through the network's fee proxy
 * (an approval first when the wallet book's allowance is short), with metadata read from the
 * wallet book.
 */
export async function buildSameChainCalldata(
  ctx: DomainContext,
  { accountId, request, token, amount, fee, wallet }: SameChainPayment,
): Promise<SameChainCalldata> {
  const contracts = contractsFor(ctx, request.network);
  const feeAmount = computeFeeAmount(amount, fee.feePercentage);
  const currentAllowance =
    wallet === undefined || token.type !== "ERC20"
      ? undefined
      : await allowanceOf(ctx.store, accountId, wallet, token.id, contracts.erc20FeeProxy);
  const built = buildPaymentTransactions({
    network: request.network as NetworkName,
    token,
    payee: request.payee,
    amount,
    paymentReference: request.paymentReference,
    feeAmount,
    feeAddress: fee.feeAddress,
    currentAllowance,
    contracts,
  });
  const funds = await checkWalletFunds(
    ctx,
    accountId,
    wallet,
    request.network,
    [{ token, amount: amount + feeAmount }],
    built.transactions.length,
  );

  return {
    transactions: built.transactions.map((transaction) =>
      toWireTransaction(transaction, token.type === "ETH" ? "bignumber" : "number"),
    ),
    metadata: {
      stepsRequired: built.transactions.length,
      needsApproval: built.needsApproval,
      approvalTransactionIndex: built.approvalTransactionIndex,
      // The payment is always the last transaction, after any approval.
      paymentTransactionIndex: built.transactions.length - 1,
      ...funds,
    },
  };
}
