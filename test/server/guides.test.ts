import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { compileGuideSnippets, guideSnippets } from "../support/compile-guide-snippets.ts";
import { shellBlocks, startServerScriptProcess } from "../support/guide-walkthrough.ts";
import type { RunningProcess } from "../support/start-process.ts";

// The guides of the payer, client-ID, currency, request and payout, and secure-payment
// operations, and of forced answers and faults: every `sh` block of each runs as written, in one
// bash session, against `npm start`'s server (only BASE points at it), twice, the second time in
// reverse order; and every TypeScript snippet compiles against the package.

const defaultBase = "BASE=http://127.0.0.1:3000";

let server: RunningProcess | undefined;
let base = "";

/**
 * Runs a guide's `sh` blocks (of one `##` section, when given, less a first block that starts the
 * server) in order in one bash session; returns its output lines.
 */
function runGuide(guide: string, section?: string): string[] {
  const blocks =
    section === undefined
      ? [...readFileSync(path.join(repoRoot, "docs", guide), "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map(
          (match) => match[1] as string,
        )
      : shellBlocks(`docs/${guide}`, section).filter((block) => block !== "npm ci && npm start\n");
  const script = blocks.join("\n");
  expect(script.startsWith(`${defaultBase}\n`)).toBe(true);
  const result = spawnSync(
    "bash",
    ["-e", "-o", "pipefail", "-c", script.replace(defaultBase, `BASE=${base}`)],
    {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout.trimEnd().split("\n");
}

/** Each guide run against the server (or one section of it), and what its output must be. */
const guideRuns: { guide: string; section?: string; runs: string; check(lines: string[]): void }[] = [
  {
    guide: "reference-server.md",
    section: "Quick start",
    runs: "runs the quick start as written: a link, its calldata, a recorded payment, then a link expired by the clock",
    check: (lines: string[]) => {
      expect(lines.filter((line) => line.startsWith("token check:"))).toEqual([
        "token check: 200",
        "token check: 409",
        "token check: 403",
      ]);
      expect(lines.join("\n")).toContain('"id":"USDC-base"');
      expect(lines.join("\n")).toMatch(
        /"securePaymentUrl":"http:\/\/127\.0\.0\.1:\d+\/pay\?token=[0-9A-HJKMNP-TV-Z]{26}"/,
      );
      expect(lines.join("\n")).toContain("stepsRequired: 2");
      expect(lines.join("\n")).toContain("needsApproval: true");
      expect(lines).toContain("paid");
      // The clock moves 8 days at each run: at least that far from the base clock.
      const offset = Number(/"offsetSeconds":(\d+)/.exec(lines.join("\n"))?.[1]);
      expect(offset % 691_200).toBe(0);
      expect(offset).toBeGreaterThanOrEqual(691_200);
    },
  },
  {
    guide: "payers.md",
    runs: "runs the off-ramp onboarding: getPayerComplianceStatus, registerPayer, updatePayerComplianceStatus, updateSandboxPayer, createPaymentDetailsV2, listPaymentDetails",
    check: (lines: string[]) => {
      expect(lines[0]).toBe("status before registration: 404");
      expect(lines).toContain("{ agreementStatus: 'not_started', kycStatus: 'not_started' }");
      expect(lines).toContain("pending / initiated / compliant: false");
      expect(lines).toContain("completed / initiated / compliant: false");
      expect(lines).toContain("compliant: true");
      expect(lines.find((line) => line.startsWith("paymentDetailsId: "))).toMatch(
        /^paymentDetailsId: [0-9a-f-]{36}$/,
      );
      expect(lines).toContain("[ 'Musterbank Berlin EUR approved' ]");
      expect(lines.at(-1)).toBe("off-ramp calldata: 2 transactions");
    },
  },
  {
    guide: "client-ids.md",
    runs: "runs a client ID's life: createClientId, listClientIds, browser calls, updateClientId, deleteClientId",
    check: (lines: string[]) => {
      expect(lines).toEqual([
        "active https://shop.example.com fee 1.5",
        "[ 'Sandbox browser client: active', 'Checkout page: active' ]",
        "preflight: 204",
        expect.stringMatching(/^routes: .*USDC-base/),
        "from another origin: 403",
        "inactive, fee null",
        "while inactive: 401",
        "active",
        "active again: 200",
        "delete: 200",
        "after deletion: 401",
        "preflight after deletion: 403",
        "revoked",
        "/problems/invalid-state",
      ]);
    },
  },
  {
    guide: "currencies.md",
    runs: "runs listCurrenciesV2 and listConversionRoutesV2 as written",
    check: (lines: string[]) => {
      expect(lines.slice(0, 3)).toEqual(["[ 'USDC-base 6' ]", "one object: FAU-sepolia", "no match: 404"]);
      expect(lines[3]).toMatch(/^USD -> .*USDC-base/);
      expect(lines[4]).toMatch(/^base,optimism: [1-9]\d* tokens$/);
    },
  },
  {
    guide: "faults-and-rate-limits.md",
    runs: "runs forced answers and createSandboxFault, listSandboxFaults and clearSandboxFaults as written",
    check: (lines: string[]) => {
      expect(lines).toEqual([
        "forced: 404 /problems/not-found",
        "forced 429, Retry-After 12",
        "/headers/prefer",
        "fault: 503, calls left 1",
        "first call: 503, Retry-After 2",
        "second call: 200",
        "dropped: curl exit 52",
        "share 0.5: 200 500 200 500",
        "[ '4 seen, 2 applied' ]",
        "cleared: 204",
      ]);
    },
  },
  {
    guide: "requests-and-payouts.md",
    runs: "runs Try it as written: createRequest, getRequestStatus, searchPayments, createPayout, submitRecurringPaymentSignature, getRecurringPaymentStatus",
    check: (lines: string[]) => {
      expect(lines).toEqual([
        "paid: false",
        "steps: 2",
        "paid: true",
        "found: 150",
        "{ type: 'BigNumber', hex: '0x02c68af0bb140000' }",
        "recurring: active",
        "executed: 1 of 3",
      ]);
    },
  },
  {
    guide: "secure-payments.md",
    runs: "runs findSecurePayment and getSecurePaymentCalldata as written",
    check: (lines: string[]) => {
      expect(lines).toEqual([
        "batch pending",
        "the token of the link",
        "1 approval, then batchPayments to 0x1aF3f22685AcdDc788B3730ed415912d8f654420",
        expect.stringMatching(/^completed, completed at \d{4}-\d\d-\d\dT/),
        "calldata of a completed link: 409",
      ]);
    },
  },
];

// The server runs while the guides run, and stops before the snippets compile.
describe("the guides' sh blocks, against npm start", () => {
  // Started as `npm start` starts it: from the bundle, without a TypeScript loader to compile first.
  beforeAll(async () => {
    ({ server, url: base } = await startServerScriptProcess(["--port", "0"]));
  });
  afterAll(() => server?.kill());

  describe.each(guideRuns)("docs/$guide", ({ guide, section, runs, check }) => {
    it(runs, () => check(runGuide(guide, section)));
  });

  // Every guide works on a server that ran the others (and itself) before: each again, in reverse order.
  describe.each([...guideRuns].reverse())(
    "docs/$guide, again, after every guide ran",
    ({ guide, section, check }) => {
      it("gives the same answers", () => check(runGuide(guide, section)));
    },
  );
});

describe.each(["docs/payers.md", "docs/client-ids.md", "docs/payee-destinations.md"])(
  "the typed-client snippet of %s",
  (guide) => {
    it("compiles with the project's strict settings", () => {
      expect(guideSnippets(guide)).toHaveLength(1);
      const result = compileGuideSnippets(guide);
      expect(result.stdout + result.stderr).toBe("");
    });
  },
);
