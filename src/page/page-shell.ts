import { pageAssetPath, pageAssets } from "./page-assets.ts";
import { clientIdMetaName } from "./page-meta.ts";

/** Text made safe to place in HTML content and quoted attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * Headers of the page: its script and styles come from the server alone and it talks to the server
 * alone, nothing may frame it, and the token in its URL is never sent on as a referrer.
 */
export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
};

/**
 * The HTML the server sends for `/pay?token=...`: the shell the bundled script fills in, with the
 * public client ID the script authenticates its API calls with.
 */
export function renderPageShell(options: { clientId: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="${clientIdMetaName}" content="${escapeHtml(options.clientId)}">
<title>Secure payment</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${pageAssetPath}/${pageAssets.style}">
<script type="module" src="${pageAssetPath}/${pageAssets.script}"></script>
</head>
<body>
<p class="sandbox-banner"><strong>payreq sandbox.</strong> Transactions you sign here are really sent by your wallet, on the network it uses: pay with a test network or a test wallet.</p>
<main>
<h1 id="page-title" tabindex="-1">Secure payment</h1>
<p id="status" class="status" role="status" aria-live="polite"></p>
<div id="content"><noscript><p>This page needs JavaScript to check the payment and sign it in your wallet.</p></noscript></div>
</main>
<footer><p>Before you sign, this page checks every transaction against the official Request Network contracts and the details shown. Never sign a payment it marks as not matching.</p></footer>
</body>
</html>
`;
}
