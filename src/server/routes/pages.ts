import { Router } from "express";
import { bundledSpecFile, docsFile } from "../api-spec.ts";
import { formatBaseUnits } from "../domain/amounts.ts";
import type { DomainContext } from "../domain/context.ts";
import { findCurrency } from "../domain/currencies.ts";
import { effectiveStatus } from "../domain/secure-payments.ts";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style>
</head><body><p><strong>payreq sandbox</strong>: not the real service.</p>${body}</body></html>`;
}

/** Pages outside the API: the spec, the reference, and the sandbox's stand-ins for hosted pages. */
export function pagesRouter(ctx: DomainContext): Router {
  const router = Router();

  router.get("/", (_req, res) => {
    const origin = ctx.publicOrigin();
    res.json({
      name: "payreq reference server (sandbox of the Payment Request Service)",
      api: origin,
      openapi: `${origin}/openapi.json`,
      docs: `${origin}/docs`,
    });
  });
  router.get("/openapi.json", (_req, res) => res.sendFile(bundledSpecFile));
  router.get("/docs", (_req, res) => res.sendFile(docsFile));

  router.get("/pay", async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    const record = token === "" ? undefined : await ctx.store.getSecurePayment(token);
    if (!record) {
      res
        .status(404)
        .type("html")
        .send(page("Payment link not found", "<h1>This payment link does not exist.</h1>"));
      return;
    }
    const rows: string[] = [];
    for (const requestId of record.requestIds) {
      const request = await ctx.store.getRequest(requestId);
      if (!request) continue;
      const decimals = findCurrency(request.paymentCurrency)?.decimals ?? 0;
      rows.push(
        `<li>${escapeHtml(formatBaseUnits(request.expectedAmount, decimals))} ${escapeHtml(request.paymentCurrency)} to <code>${escapeHtml(request.payee)}</code> (request <code>${escapeHtml(requestId)}</code>, ${escapeHtml(request.status)})</li>`,
      );
    }
    const status = effectiveStatus(record, ctx.clock.now());
    res.type("html").send(
      page(
        "Secure payment",
        `<h1>Secure payment</h1><p>Status: <strong>${escapeHtml(status)}</strong>, on ${escapeHtml(record.network)}, payable until ${escapeHtml(record.expiresAt)}.</p><ul>${rows.join("")}</ul>
<p>The sandbox does not sign or send transactions. Get the calldata with <code>GET /v2/request/{requestId}/pay</code>, and record a payment with <code>POST /sandbox/requests/{requestId}/payments</code>.</p>`,
      ),
    );
  });

  for (const step of ["kyc", "agreement"] as const) {
    router.get(`/pages/${step}/:userId`, (req, res) => {
      const title = step === "kyc" ? "Identity verification" : "Payer agreement";
      res
        .type("html")
        .send(
          page(
            title,
            `<h1>${title}</h1><p>Sandbox stand-in for the ${step === "kyc" ? "verification provider's" : "agreement"} page of payer <code>${escapeHtml(req.params.userId)}</code>. Nothing is collected here.</p>`,
          ),
        );
    });
  }
  return router;
}
