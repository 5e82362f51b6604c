import path from "node:path";
import { Router } from "express";
import { pageAssetDirectory, pageAssetPath, pageAssets } from "../../page/page-assets.ts";
import { escapeHtml, pageSecurityHeaders, renderPageShell } from "../../page/page-shell.ts";
import { bundledSpecFile, referenceDocsFile } from "../../spec/spec-document.ts";
import { allowsOrigin } from "../domain/shared/client-ids.ts";
import type { ServerContext } from "../domain/shared/context.ts";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style>
</head><body><p><strong>payreq sandbox</strong>: not the real service.</p>${body}</body></html>`;
}

/**
 * The client ID the payment page calls the API with: the first active configured client ID that
 * allows the server's own origin (`self` in its allowed domains).
 */
async function findPageClientId(ctx: ServerContext): Promise<string | undefined> {
  const origin = ctx.publicOrigin();
  const { items: clientIds } = await ctx.store.clientIds.find("all", {});
  return clientIds.find((record) => allowsOrigin(record, origin, origin))?.clientId;
}

/** Pages outside the API: the spec, the reference, and the hosted payment page and stand-ins for the other hosted pages. */
export function pagesRouter(ctx: ServerContext): Router {
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
  router.get("/docs", (_req, res) => res.sendFile(referenceDocsFile));

  // The hosted secure-payment page: a static shell and its bundled script, which loads the
  // payment by token through the API with the client ID below.
  router.get("/pay", async (_req, res) => {
    res.set(pageSecurityHeaders);
    res.type("html").send(renderPageShell({ clientId: (await findPageClientId(ctx)) ?? "" }));
  });
  router.get(`${pageAssetPath}/:file`, (req, res, next) => {
    const file = Object.values(pageAssets).find((name) => name === req.params.file);
    if (!file) return next();
    res.set({ "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" });
    res.sendFile(path.join(pageAssetDirectory, file));
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
