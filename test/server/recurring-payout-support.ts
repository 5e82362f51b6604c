import { parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { payee, type TestServer } from "./helpers.ts";

// Local keys, known to the test only: they sign permits as a payer's wallet would.
export const subscriber = privateKeyToAccount(
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
);
export const stranger = privateKeyToAccount(
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
);
export const baseProxy = "0xDc8781fFAb20Fef4aB0472c3d6E50073B540Ed9e";
export const approveAbi = parseAbi(["function approve(address spender, uint256 amount)"]);

/** The body of a monthly recurring payout of 50 USDC on Base, 12 payments from 2026-05-01. */
export const monthly = (payer: string = subscriber.address, extra: Record<string, unknown> = {}) => ({
  payee,
  amount: "50",
  invoiceCurrency: "USDC-base",
  paymentCurrency: "USDC-base",
  recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 12, payer },
  ...extra,
});

/** Creates a recurring payout (201), answering its body. */
export async function createRecurring(server: TestServer, body: Record<string, unknown> = monthly()) {
  const answer = await server.call("POST", "/v2/payouts", { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}
