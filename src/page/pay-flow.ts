import type { Address } from "viem";
import type { PayreqClient } from "../client/create-client.ts";
import { fetchTransactions, TransactionsUnavailableError } from "./api.ts";
import { awaitRecordedPayment, recordingWaitMs } from "./await-recorded-payment.ts";
import { announce, h, type PageElement } from "./dom.ts";
import type { ExpectedLink, SecurePaymentDetails } from "./expected-link.ts";
import { networkLabel } from "./page-chains.ts";
import { type CheckedStep, verifyTransactions } from "./verify-transactions.ts";
import { totalsOf } from "./view-details.ts";
import {
  clearPayMessage,
  renderSteps,
  setPayButton,
  setStepState,
  showChecking,
  showCheckResult,
  showCheckUnavailable,
  showConnected,
  showPayMessage,
  showWalletMessage,
} from "./view-payment.ts";
import { describeWalletError, findInjectedWallet, isUserRejection, PageWallet } from "./wallet.ts";

/** A transaction that was mined but reverted. */
class StepFailedError extends Error {
  constructor(readonly hash: string) {
    super(`transaction ${hash} reverted`);
  }
}

/** A link to the merchant's page after payment, only for http(s) URLs. */
function merchantLink(redirectUrl: string | null | undefined): PageElement | null {
  if (!redirectUrl) return null;
  try {
    const url = new URL(redirectUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return h("p", {}, h("a", { href: url.href, rel: "noreferrer" }, "Return to the merchant"));
  } catch {
    return null;
  }
}

/**
 * The payer's way through a payable link: connect, fetch and check the transactions, then send
 * them in order. Paying stays impossible unless the check found no mismatch; after a rejection
 * or a failure, "Try again" resumes at the step that did not go through.
 */
export class PayFlow {
  private wallet: PageWallet | undefined;
  private account: Address | undefined;
  private steps: CheckedStep[] = [];
  private next = 0;
  private busy = false;
  private readonly network: string;

  constructor(
    private readonly client: PayreqClient,
    private readonly token: string,
    private readonly details: SecurePaymentDetails,
    private readonly link: ExpectedLink,
  ) {
    this.network = networkLabel(link.network);
  }

  async connect(): Promise<void> {
    if (this.busy) return;
    const provider = findInjectedWallet();
    if (!provider) {
      const text = "Install a browser wallet for Ethereum networks, then reload this page.";
      showWalletMessage("danger", "No browser wallet found", text);
      announce(`No browser wallet found. ${text}`);
      return;
    }
    this.busy = true;
    try {
      const wallet = new PageWallet(provider, this.link.network);
      announce("Waiting for your wallet to share its address…");
      const account = await wallet.connect();
      this.wallet = wallet;
      this.account = account;
      showConnected(account);
      await this.check(account);
    } catch (error) {
      const declined = isUserRejection(error);
      const heading = declined ? "Connection declined" : "The wallet could not connect";
      const text = declined
        ? "You declined the connection in your wallet. Select Connect wallet to try again."
        : describeWalletError(error);
      showWalletMessage("danger", heading, text);
      announce(`${heading}. ${text}`);
    } finally {
      this.busy = false;
    }
  }

  private async check(account: Address): Promise<void> {
    showChecking();
    announce("Wallet connected. Checking the transactions…");
    let transactions: unknown[];
    try {
      transactions = await fetchTransactions(this.client, this.token, account);
    } catch (error) {
      if (!(error instanceof TransactionsUnavailableError)) throw error;
      const support = error.requestId ? ` Request ID for support: ${error.requestId}.` : "";
      showCheckUnavailable("The transactions could not be prepared", `${error.detail}${support}`);
      setPayButton({
        enabled: false,
        label: "Pay",
        hint: "Paying is blocked until the transactions can be checked.",
      });
      announce("The transactions could not be prepared. Paying is blocked.");
      return;
    }
    const { steps, mismatches } = verifyTransactions(this.link, transactions, account);
    // Only checked steps are kept, so that nothing can send transactions that failed the check.
    this.steps = mismatches.length === 0 ? steps : [];
    this.next = 0;
    renderSteps(steps, mismatches.length > 0);
    showCheckResult(mismatches, this.network);
    const total = `Pay ${totalsOf(this.link)}`;
    if (mismatches.length > 0) {
      const hint = "Paying is blocked because the transactions do not match the payment shown above.";
      setPayButton({ enabled: false, label: total, hint });
      announce("Warning: the transactions do not match this payment. Paying is blocked.");
      return;
    }
    const count = steps.length === 1 ? "1 transaction" : `${steps.length} transactions, one at a time`;
    setPayButton({
      enabled: true,
      label: total,
      hint: `Your wallet will ask you to confirm ${count}.`,
      focus: true,
    });
    announce(`Checks passed. Your wallet will ask you to confirm ${count}.`);
  }

  async pay(): Promise<void> {
    const { wallet, account } = this;
    if (this.busy || !wallet || !account || this.steps.length === 0) return;
    this.busy = true;
    clearPayMessage();
    try {
      // After "Check again" every step is confirmed already: only the service is asked again.
      if (this.next < this.steps.length && !(await this.send(wallet, account))) return;
      await this.awaitRecorded();
    } finally {
      this.busy = false;
    }
  }

  /** Switches the wallet's network and sends the steps not yet confirmed; false when one did not go through. */
  private async send(wallet: PageWallet, account: Address): Promise<boolean> {
    setPayButton({ enabled: false, label: "Paying…", hint: "Follow the requests in your wallet." });
    let phase: "switch" | "send" = "switch";
    const count = this.steps.length;
    try {
      announce(`Asking your wallet to use ${this.network}…`);
      await wallet.switchChain();
      phase = "send";
      for (; this.next < count; this.next += 1) {
        const index = this.next;
        const step = this.steps[index] as CheckedStep;
        setStepState(index, "signing");
        announce(`Step ${index + 1} of ${count}: confirm it in your wallet.`);
        const hash = await wallet.send(account, step);
        setStepState(index, "submitted", hash);
        announce(`Step ${index + 1} of ${count} sent. Waiting for the network to confirm it…`);
        if (!(await wallet.confirmed(hash))) throw new StepFailedError(hash);
        setStepState(index, "confirmed");
      }
      return true;
    } catch (error) {
      this.reportFailure(error, phase);
      return false;
    }
  }

  /**
   * Once every transaction is confirmed, waits until the service has recorded the payment (the
   * token check answers that the link is completed), as the merchant will see it; a bounded wait
   * that ends in a clear state, with "Check again" when the service has not recorded it yet.
   */
  private async awaitRecorded(): Promise<void> {
    const count = this.steps.length;
    const confirmed = `All ${count === 1 ? "" : `${count} `}transactions are confirmed on ${this.network}.`;
    showPayMessage(
      "info",
      "Payment sent",
      h("p", {}, `${confirmed} Waiting for the payment service to record the payment…`),
    );
    setPayButton({
      enabled: false,
      label: "Checking the payment…",
      hint: "There is nothing more to sign. Keep this page open until the payment is recorded.",
    });
    announce("Payment sent. All transactions are confirmed. Waiting for the payment service to record it…");
    const outcome = await awaitRecordedPayment(this.client, this.token);
    const doNotPayAgain = "Do not pay again: contact the merchant with the transaction hashes above.";
    switch (outcome.state) {
      case "recorded":
        showPayMessage(
          "success",
          "Payment complete",
          h(
            "p",
            {},
            `${confirmed} The payment service has recorded the payment: there is nothing left to pay.`,
          ),
          merchantLink(this.details.redirectUrl) ?? "",
        );
        setPayButton({ enabled: false, label: "Paid", hint: "There is nothing more to sign." });
        announce("Payment complete. The payment service has recorded the payment.");
        break;
      case "ended":
        showPayMessage(
          "danger",
          "Payment sent, but the link has ended",
          h(
            "p",
            {},
            `${confirmed} The link ended before the payment service recorded the payment: ${outcome.detail || "the service no longer knows it."}`,
          ),
          h("p", {}, doNotPayAgain),
        );
        setPayButton({ enabled: false, label: "Sent", hint: "There is nothing more to sign." });
        announce(`Payment sent, but the link has ended. ${doNotPayAgain}`);
        break;
      case "not-yet": {
        const minutes = Math.round(recordingWaitMs / 60_000);
        const text = `${confirmed} The payment service has not recorded the payment after ${minutes} minutes.`;
        showPayMessage(
          "danger",
          "Payment not recorded yet",
          h("p", {}, text),
          h("p", {}, `Select Check again in a few minutes. ${doNotPayAgain}`),
        );
        setPayButton({
          enabled: true,
          label: "Check again",
          hint: "Asks the payment service again; nothing is sent again.",
          focus: true,
        });
        announce(`Payment not recorded yet. ${text}`);
        break;
      }
    }
  }

  private reportFailure(error: unknown, phase: "switch" | "send"): void {
    const index = this.next;
    const step = `step ${index + 1} of ${this.steps.length}`;
    let heading: string;
    let text: string;
    if (phase === "switch") {
      heading = isUserRejection(error) ? "Network switch declined" : "The network could not be switched";
      text = isUserRejection(error)
        ? `You declined switching your wallet to ${this.network}. Nothing was sent.`
        : `${describeWalletError(error)} Nothing was sent.`;
    } else if (isUserRejection(error)) {
      setStepState(index, "rejected");
      heading = "Transaction rejected in your wallet";
      text = `You rejected ${step} in your wallet, so it was not sent.`;
    } else {
      setStepState(index, "failed");
      heading = "Transaction failed";
      text =
        error instanceof StepFailedError
          ? `The network reverted ${step} (transaction ${error.hash}).`
          : `${describeWalletError(error)} ${step[0]?.toUpperCase()}${step.slice(1)} was not completed.`;
    }
    showPayMessage("danger", heading, h("p", {}, `${text} Select Try again to continue.`));
    setPayButton({
      enabled: true,
      label: "Try again",
      hint: `Continues with ${step}; steps already confirmed are not sent again.`,
      focus: true,
    });
    announce(`${heading}. ${text}`);
  }
}
