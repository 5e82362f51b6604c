// The hosted secure-payment page: loads a payment link by its token, shows it, checks the
// transactions against the official contracts and lets the payer sign them in their wallet.
import type { PayreqClient } from "../client/create-client.ts";
import { checkToken, createPageClient } from "./api.ts";
import { announce, browser, byId, showView } from "./dom.ts";
import {
  type ExpectedLink,
  LinkDetailsError,
  readExpectedLink,
  type SecurePaymentDetails,
} from "./expected-link.ts";
import { clientIdMetaName } from "./page-meta.ts";
import { PayFlow } from "./pay-flow.ts";
import { renderDetails, totalsOf } from "./view-details.ts";
import { showEnded } from "./view-ended.ts";
import { renderPaymentSections, setPayButton, showCheckUnavailable } from "./view-payment.ts";

function showPayable(client: PayreqClient, token: string, details: SecurePaymentDetails): void {
  let link: ExpectedLink | undefined;
  let unreadable: string | undefined;
  try {
    link = readExpectedLink(details);
  } catch (error) {
    if (!(error instanceof LinkDetailsError)) throw error;
    unreadable = error.message;
  }
  showView("Review and pay", renderDetails(details, link), ...renderPaymentSections());
  if (!link) {
    showCheckUnavailable(
      "This payment cannot be checked",
      `The server's answer is incomplete: ${unreadable}`,
    );
    byId("connect-button").disabled = true;
    setPayButton({
      enabled: false,
      label: "Pay",
      hint: "Paying is blocked because the payment cannot be checked.",
    });
    announce("This payment cannot be checked, so paying is blocked.");
    return;
  }
  const flow = new PayFlow(client, token, details, link);
  byId("connect-button").addEventListener("click", () => void flow.connect());
  byId("pay-button").addEventListener("click", () => void flow.pay());
  announce(`Payment of ${totalsOf(link)} loaded. Review it, then connect your wallet.`);
}

async function start(): Promise<void> {
  const { document, location } = browser();
  const token = new URLSearchParams(location.search).get("token") ?? "";
  const clientId = document.querySelector(`meta[name="${clientIdMetaName}"]`)?.content ?? "";
  if (token === "") {
    showEnded({ state: "not-found", detail: "" }, startSafely);
    return;
  }
  if (clientId === "") {
    const detail =
      "This server has no client ID allowed on its own origin, so the page cannot load payments.";
    showEnded({ state: "error", detail, requestId: undefined }, startSafely);
    return;
  }
  announce("Loading the payment…");
  const client = createPageClient(location.origin, clientId);
  const check = await checkToken(client, token);
  if (check.state === "payable") showPayable(client, token, check.details);
  else showEnded(check, startSafely);
}

/** Any failure of the page itself still ends in a readable state, never a page stuck loading. */
function startSafely(): void {
  start().catch((error: unknown) => {
    const detail = `The page failed: ${error instanceof Error ? error.message : String(error)}. Reload it to try again.`;
    showEnded({ state: "error", detail, requestId: undefined }, startSafely);
  });
}

startSafely();
