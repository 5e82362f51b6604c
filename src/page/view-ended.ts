import type { TokenCheck } from "./api.ts";
import { announce, byId, type Child, h, showView } from "./dom.ts";

type EndedCheck = Exclude<TokenCheck, { state: "payable" }>;

const card = (...children: Child[]) =>
  h("section", { class: "card", "aria-labelledby": "page-title" }, ...children);

/**
 * The page for a link that cannot be paid: expired or withdrawn, already paid, being paid,
 * unknown, or an error. Focus moves to the title, so that screen readers read the outcome first.
 */
export function showEnded(check: EndedCheck, retry: () => void): void {
  switch (check.state) {
    case "not-payable":
      showView(
        "This payment link can no longer be used",
        card(
          h("p", {}, check.detail || "The link has expired or was withdrawn."),
          h("p", { class: "lead" }, h("strong", {}, "Ask the merchant for a new link.")),
        ),
      );
      break;
    case "paid":
      showView(
        "This payment is already paid",
        card(
          h("p", {}, "There is nothing left to pay with this link."),
          h("p", {}, "If you did not expect this, contact the merchant before paying again."),
        ),
      );
      break;
    case "in-progress":
      showView(
        "This payment is being processed",
        card(
          h("p", {}, "A payment with this link was already sent and is still being confirmed."),
          h("p", { class: "lead" }, h("strong", {}, "Do not pay again. Check back in a few minutes.")),
        ),
      );
      break;
    case "not-found":
      showView(
        "Payment link not found",
        card(
          h("p", {}, "No payment matches this link. Check that you opened the whole link from the merchant."),
          h(
            "p",
            { class: "lead" },
            h("strong", {}, "Ask the merchant for a new link if it still does not work."),
          ),
        ),
      );
      break;
    case "error": {
      const button = h("button", { type: "button", class: "button" }, "Try again");
      button.addEventListener("click", retry);
      showView(
        "The payment could not be loaded",
        card(
          h("p", {}, check.detail),
          check.requestId
            ? h("p", { class: "muted" }, "Request ID for support: ", h("code", {}, check.requestId))
            : null,
          button,
        ),
      );
      break;
    }
  }
  announce("");
  byId("page-title").focus();
}
