import { address, byId, h, type PageElement } from "./dom.ts";
import type { CheckedStep, Mismatch } from "./verify-transactions.ts";

export type StepState = "waiting" | "blocked" | "signing" | "submitted" | "confirmed" | "rejected" | "failed";

const stepStateText: Record<StepState, string> = {
  waiting: "Not sent yet",
  blocked: "Will not be sent: the check failed",
  signing: "Confirm in your wallet…",
  submitted: "Sent, waiting for the network to confirm it…",
  confirmed: "Confirmed",
  rejected: "Rejected in your wallet",
  failed: "Failed",
};

type NoticeKind = "info" | "success" | "danger";

/** A boxed message; danger and success notices are alerts, so screen readers say them at once. */
function notice(kind: NoticeKind, heading: string, ...body: (PageElement | string)[]): PageElement {
  return h(
    "div",
    { class: `notice notice-${kind}`, role: kind === "info" ? undefined : "alert" },
    h("p", { class: "notice-heading" }, h("strong", {}, heading)),
    ...body,
  );
}

/** The three steps below the details: connect the wallet, check the transactions, pay. */
export function renderPaymentSections(): PageElement[] {
  return [
    h(
      "section",
      { class: "card", "aria-labelledby": "wallet-heading" },
      h("h2", { id: "wallet-heading" }, "1. Connect your wallet"),
      h("p", {}, "The page asks your browser wallet for its address, then prepares the transactions for it."),
      h("button", { type: "button", class: "button", id: "connect-button" }, "Connect wallet"),
      h("div", { id: "wallet-info" }),
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "check-heading" },
      h("h2", { id: "check-heading" }, "2. Check the transactions"),
      h(
        "div",
        { id: "check-result" },
        h(
          "p",
          { class: "muted" },
          "Before you can sign, the page checks that every transaction goes to an official Request Network contract and pays exactly what is shown above.",
        ),
      ),
      h("ol", { id: "steps", class: "steps" }),
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "pay-heading" },
      h("h2", { id: "pay-heading" }, "3. Sign and send"),
      h(
        "button",
        {
          type: "button",
          class: "button button-primary",
          id: "pay-button",
          disabled: true,
          "aria-describedby": "pay-hint",
        },
        "Pay",
      ),
      h("p", { id: "pay-hint", class: "muted" }, "Connect your wallet first."),
      h("div", { id: "pay-message" }),
    ),
  ];
}

export function showWalletMessage(kind: NoticeKind, heading: string, text: string): void {
  byId("wallet-info").replaceChildren(notice(kind, heading, h("p", {}, text)));
}

export function showConnected(account: string): void {
  const button = byId("connect-button");
  button.textContent = "Wallet connected";
  button.disabled = true;
  byId("wallet-info").replaceChildren(h("p", {}, "Connected account: ", address(account)));
}

export function showChecking(): void {
  byId("check-result").replaceChildren(h("p", {}, "Fetching and checking the transactions…"));
}

/** The outcome of the check: passed, or a warning naming each mismatch. */
export function showCheckResult(mismatches: readonly Mismatch[], networkName: string): void {
  const result =
    mismatches.length === 0
      ? notice(
          "success",
          "Checks passed",
          h(
            "p",
            {},
            `Every transaction goes to an official Request Network contract on ${networkName} and pays exactly the payee, amount, fee and payment reference shown above.`,
          ),
        )
      : notice(
          "danger",
          "Do not pay: the transactions do not match this payment",
          h("ul", { class: "mismatches" }, ...mismatches.map((mismatch) => h("li", {}, mismatch.message))),
          h(
            "p",
            {},
            "Paying is blocked. Contact the merchant; do not send these transactions from another page.",
          ),
        );
  byId("check-result").replaceChildren(result);
}

export function showCheckUnavailable(heading: string, text: string): void {
  byId("check-result").replaceChildren(notice("danger", heading, h("p", {}, text)));
}

/** Lists the transactions to send, in order, with their target contracts in full. */
export function renderSteps(steps: readonly CheckedStep[], blocked: boolean): void {
  const state: StepState = blocked ? "blocked" : "waiting";
  byId("steps").replaceChildren(
    ...steps.map((step, index) =>
      h(
        "li",
        { class: "step", id: `step-${index}`, "data-state": state },
        h("span", { class: "step-label" }, step.label),
        h("span", { class: "step-target" }, "Sent to ", address(step.to)),
        h("span", { class: "step-state" }, stepStateText[state]),
        h("span", { class: "step-hash" }),
      ),
    ),
  );
}

export function setStepState(index: number, state: StepState, hash?: string): void {
  const item = byId(`step-${index}`);
  item.dataset.state = state;
  (item.querySelector(".step-state") as PageElement).textContent = stepStateText[state];
  if (hash) {
    (item.querySelector(".step-hash") as PageElement).replaceChildren(
      "Transaction hash: ",
      h("code", {}, hash),
    );
  }
}

/** Enables or disables the pay button, with the sentence that says why. */
export function setPayButton(state: {
  enabled: boolean;
  label: string;
  hint: string;
  focus?: boolean;
}): void {
  const button = byId("pay-button");
  button.textContent = state.label;
  button.disabled = !state.enabled;
  byId("pay-hint").textContent = state.hint;
  if (state.focus && state.enabled) button.focus();
}

export function showPayMessage(kind: NoticeKind, heading: string, ...body: (PageElement | string)[]): void {
  byId("pay-message").replaceChildren(notice(kind, heading, ...body));
}

export function clearPayMessage(): void {
  byId("pay-message").replaceChildren();
}
