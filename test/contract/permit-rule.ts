import { type Address, type Hex, verifyTypedData } from "viem";
import { readTypedData } from "../../src/wire/typed-data.ts";

type Rejection = [number, string, string];

/**
 * What the conforming proxy adds to Prism for recurring payouts: the permit of a recurring payout
 * names the payer of the request (Prism answers its example's), and only that payer's signature
 * of it activates the recurring payment.
 */
export function createPermitRule() {
  const permits = new Map<string, { permit: unknown; payer: Address }>();
  return {
    /** The headers that make Prism answer a recurring payout to a body with a recurrence. */
    headersFor(path: string, body: unknown): Record<string, string> {
      const recurring = path === "/v2/payouts" && (body as { recurrence?: unknown } | undefined)?.recurrence;
      return recurring ? { prefer: "example=recurring" } : {};
    },
    /** Prism's recurring payout, with the request's payer as the permit's subscriber, remembered. */
    rewrite(path: string, body: unknown, answer: Record<string, unknown>): Record<string, unknown> {
      const payer = (body as { recurrence?: { payer?: Address } } | undefined)?.recurrence?.payer;
      const permit = answer.recurringPaymentPermit as { values: Record<string, unknown> } | undefined;
      if (path !== "/v2/payouts" || !payer || !permit) return answer;
      const rewritten = { ...permit, values: { ...permit.values, subscriber: payer } };
      permits.set(String(answer.id), { permit: rewritten, payer });
      return { ...answer, recurringPaymentPermit: rewritten };
    },
    /** 400 for a signature of a remembered permit by anyone but its payer. */
    async check(path: string, method: string, body: unknown): Promise<Rejection | undefined> {
      const id = /^\/v2\/payouts\/recurring\/([^/]+)$/.exec(path)?.[1];
      const known = id === undefined ? undefined : permits.get(id);
      if (method !== "POST" || !known) return undefined;
      const signature = (body as { permitSignature?: Hex } | undefined)?.permitSignature;
      const valid =
        signature !== undefined &&
        (await verifyTypedData({ ...readTypedData(known.permit), address: known.payer, signature }).catch(
          () => false,
        ));
      return valid ? undefined : [400, "Bad Request", "the permit is not signed by its payer"];
    },
  };
}
