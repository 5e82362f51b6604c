import { maxUint256 } from "viem";
import {
  buildApproval,
  buildPaymentTransactions,
  type NetworkName,
  type TokenRecord,
} from "../../../chain/index.ts";
import { newUlid } from "../../ids.ts";
import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { PaymentIntentRecord, RequestRecord } from "../../store/records.ts";
import type { DomainContext } from "./context.ts";
import { contractsFor } from "./contracts.ts";
import { findCurrency } from "./currencies.ts";
import type { OperationInput } from "./operation-types.ts";
import { toWireTransaction } from "./transaction-wire.ts";
import { allowanceOf, balanceOf, checksummed } from "./wallet-book.ts";
import type { Schemas } from "./wire-types.ts";

type PayCalldataQuery = OperationInput<"getPayCalldata">["query"];
/** The source chains and tokens of a cross-chain payment, as the spec's query parameters list them. */
export type SourceChain = NonNullable<PayCalldataQuery["chain"]>;
export type SourceToken = NonNullable<PayCalldataQuery["token"]>;

const sourceNetworks: Record<SourceChain, string> = {
  BASE: "base",
  OPTIMISM: "optimism",
  ARBITRUM: "arbitrum-one",
  ETHEREUM: "mainnet",
};
/** Permit2, at the same address on every network. */
export const permit2Address = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
/** Sandbox stand-ins for the service's bridge contract and operator; not real deployments. */
const sandboxBridgeSpender = "0x4B1d5b0aF5AbAe333C8d2CCa2a346e0D5f68C427";
const sandboxOperator = "0xd36B6f4040B8449e93eb2B348EdCD2a968AEA9D9";
const sandboxOperatorId = "0x6ab1463ead4ba60b8e08155b29ea2b3c91731e78be09b6e12b6c25414d724dd0";
const bridgedSymbols = new Set(["USDC", "USDCn", "USDT"]);
/** Tokens with EIP-2612 `permit`: native USDC has it, USDT does not. */
const permitSymbols = new Set(["USDC", "USDCn"]);
const intentLifetimeSeconds = 3600;

/** Whether `chain` and `token` name a source other than the request's own network and currency. */
export function isCrossChain(chain: SourceChain, symbol: SourceToken, requestToken: TokenRecord): boolean {
  const sameToken = symbol === requestToken.symbol || `${symbol}n` === requestToken.symbol;
  return sourceNetworks[chain] !== requestToken.network || !sameToken;
}

/** Whether the bridge carries payments into this currency. */
function isBridged(token: TokenRecord): boolean {
  return bridgedSymbols.has(token.symbol) && Object.values(sourceNetworks).includes(token.network);
}

/** Every source a cross-chain payment into `requestToken` can come from; none when it is not bridged. */
export function crossChainSources(
  requestToken: TokenRecord,
): { chain: SourceChain; symbol: SourceToken; token: TokenRecord }[] {
  if (!isBridged(requestToken)) return [];
  return (Object.keys(sourceNetworks) as SourceChain[]).flatMap((chain) =>
    (["USDC", "USDT"] as const satisfies readonly SourceToken[]).flatMap((symbol) => {
      const token = findCurrency(`${symbol}-${sourceNetworks[chain]}`);
      return token && isCrossChain(chain, symbol, requestToken) ? [{ chain, symbol, token }] : [];
    }),
  );
}

function checkIntent(input: IntentInput): { source: TokenRecord; wallet: `0x${string}` } {
  const issues: ValidationIssue[] = [];
  if (!isBridged(input.token)) {
    issues.push({
      path: "/path/requestId",
      message: `pays in ${input.token.id}, which the cross-chain bridge does not carry (it carries USDC and USDT on ${Object.values(sourceNetworks).join(", ")})`,
    });
  } else if (input.amount < 10n ** BigInt(input.token.decimals)) {
    issues.push({
      path: "/path/requestId",
      message: "has an amount below 1, too small for a cross-chain payment",
    });
  }
  // The bridge carries native USDC, listed as USDCn where a bridged USDC also exists.
  const network = sourceNetworks[input.chain];
  const source =
    findCurrency(`${input.sourceSymbol}n-${network}`) ?? findCurrency(`${input.sourceSymbol}-${network}`);
  if (!source) {
    issues.push({
      path: "/query/token",
      message: `${input.sourceSymbol} is not available on ${input.chain}`,
    });
  }
  if (input.wallet === undefined) {
    issues.push({
      path: "/query/wallet",
      message: "is required for a cross-chain payment: the payment intent names the payer's account",
    });
  }
  if (issues.length > 0 || !source || input.wallet === undefined) throw validationFailed(issues);
  return { source, wallet: checksummed(input.wallet) };
}

interface IntentInput {
  /** The caller's account, whose wallet book says what Permit2 may already spend. */
  accountId: string;
  request: RequestRecord;
  token: TokenRecord;
  amount: bigint;
  chain: SourceChain;
  sourceSymbol: SourceToken;
  wallet: string | undefined;
}

/** Base units of `to` worth `amount` of `from`, both USD stablecoins at par; rounded up. */
export function rescale(amount: bigint, from: TokenRecord, to: TokenRecord): bigint {
  const up = 10n ** BigInt(to.decimals);
  const down = 10n ** BigInt(from.decimals);
  return (amount * up + down - 1n) / down;
}

/**
 * A cross-chain payment intent: EIP-712 typed data of a Permit2 batch transfer whose witness
 * describes the payment, plus what lets Permit2 spend the source token when the wallet book
 * says its allowance is too low (a permit to sign for USDC, an `approve` to send for USDT).
 */
export async function buildCrossChainIntent(
  ctx: DomainContext,
  input: IntentInput,
): Promise<Schemas["CrossChainPayCalldata"]> {
  const { source, wallet } = checkIntent(input);
  const now = ctx.clock.now();
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000));
  const deadline = (nowSeconds + BigInt(intentLifetimeSeconds)).toString();
  const sourceAmount = rescale(input.amount, input.token, source);
  const paymentIntent = {
    domain: { name: "Permit2", chainId: source.chainId, verifyingContract: permit2Address },
    types: {
      PermitBatchWitnessTransferFrom: [
        { name: "permitted", type: "TokenPermissions[]" },
        { name: "spender", type: "address" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
        { name: "witness", type: "PaymentIntent" },
      ],
      TokenPermissions: [
        { name: "token", type: "address" },
        { name: "amount", type: "uint256" },
      ],
      PaymentIntent: [
        { name: "payment_type", type: "uint8" },
        { name: "operator_data", type: "OperatorData" },
        { name: "amount", type: "uint256" },
        { name: "source", type: "Domain" },
        { name: "destination", type: "Domain" },
        { name: "processing_date", type: "uint256" },
        { name: "expires_at", type: "uint256" },
      ],
      OperatorData: [
        { name: "operatorId", type: "bytes32" },
        { name: "operator", type: "address" },
        { name: "treasury_account", type: "address" },
        { name: "fee", type: "uint256" },
      ],
      Domain: [
        { name: "account", type: "address" },
        { name: "network_id", type: "uint256" },
        { name: "payment_token", type: "address" },
      ],
    },
    values: {
      permitted: [{ token: source.address, amount: sourceAmount.toString() }],
      spender: sandboxBridgeSpender,
      nonce: now.getTime().toString(),
      deadline,
      witness: {
        payment_type: 0,
        operator_data: {
          operatorId: sandboxOperatorId,
          operator: sandboxOperator,
          treasury_account: sandboxOperator,
          fee: "0",
        },
        amount: input.amount.toString(),
        source: { account: wallet, network_id: String(source.chainId), payment_token: source.address },
        destination: {
          account: checksummed(input.request.payee),
          network_id: String(input.token.chainId),
          payment_token: input.token.address,
        },
        processing_date: nowSeconds.toString(),
        expires_at: deadline,
      },
    },
  };

  const supportsEIP2612 = permitSymbols.has(source.symbol);
  const allowance = await allowanceOf(ctx.store, input.accountId, wallet, source.id, permit2Address);
  const needsApproval = allowance < sourceAmount;
  const permit = {
    domain: { name: source.name, version: "2", chainId: source.chainId, verifyingContract: source.address },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    values: { owner: wallet, spender: permit2Address, value: maxUint256.toString(), nonce: "0", deadline },
  };
  const issued: PaymentIntentRecord = {
    id: newUlid(now),
    accountId: input.request.accountId,
    requestId: input.request.requestId,
    payer: wallet,
    amount: input.amount.toString(),
    sourceNetwork: source.network,
    sourceCurrency: source.id,
    sourceAmount: sourceAmount.toString(),
    paymentIntent: JSON.stringify(paymentIntent),
    approvalPermit: needsApproval && supportsEIP2612 ? JSON.stringify(permit) : null,
    status: "issued",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  // Everything is read before the one write, so that a failure leaves nothing behind.
  const route = await buildSourceTransactions(ctx, input, source, wallet, sourceAmount);
  // Kept so that POST /v2/request/payment-intents/{id} can check the signatures against it.
  await ctx.store.paymentIntents.put(issued);
  return {
    transactions: route.transactions,
    paymentIntentId: issued.id,
    paymentIntent: issued.paymentIntent,
    approvalPermitPayload: issued.approvalPermit,
    approvalCalldata:
      needsApproval && !supportsEIP2612
        ? toWireTransaction(
            buildApproval({ token: source.address, spender: permit2Address, amount: maxUint256 }),
            "hex",
          )
        : null,
    metadata: { ...route.metadata, supportsEIP2612 },
  };
}

/**
 * The executable form of the route, on the source network: the sandbox's stand-in for a bridge
 * deposit is a payment of the source token through that network's ERC20FeeProxy to the sandbox
 * bridge, carrying the request's payment reference (an `approve` of the proxy first when the
 * wallet book's allowance is short). No bridge runs: the payment is recorded through the sandbox.
 */
async function buildSourceTransactions(
  ctx: DomainContext,
  input: IntentInput,
  source: TokenRecord,
  wallet: string,
  sourceAmount: bigint,
) {
  const contracts = contractsFor(ctx, source.network);
  const currentAllowance = await allowanceOf(
    ctx.store,
    input.accountId,
    wallet,
    source.id,
    contracts.erc20FeeProxy,
  );
  const built = buildPaymentTransactions({
    network: source.network as NetworkName,
    token: source,
    payee: sandboxBridgeSpender,
    amount: sourceAmount,
    paymentReference: input.request.paymentReference,
    feeAmount: 0n,
    feeAddress: undefined,
    currentAllowance,
    contracts,
  });
  const held = await balanceOf(ctx.store, input.accountId, wallet, source.id);
  return {
    transactions: built.transactions.map((transaction) => toWireTransaction(transaction, "hex")),
    metadata: {
      stepsRequired: built.transactions.length,
      needsApproval: built.needsApproval,
      approvalTransactionIndex: built.approvalTransactionIndex,
      // The deposit is always the last transaction, after any approval.
      paymentTransactionIndex: built.transactions.length - 1,
      hasEnoughBalance: held >= sourceAmount,
      routeType: "crosschain" as const,
    },
  };
}
