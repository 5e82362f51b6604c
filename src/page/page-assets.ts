import { fileURLToPath } from "node:url";

/** The page's built files: scripts/build-page.ts writes them, the server serves them under `/pay/assets/`. */
export const pageAssets = {
  script: "secure-payment.js",
  style: "secure-payment.css",
} as const;

/** Where the built files live, relative to the repository (or to a scratch build root). */
export const pageAssetFolder = "generated/page";

/** The folder of the committed build the server serves from. */
export const pageAssetDirectory = fileURLToPath(new URL(`../../${pageAssetFolder}/`, import.meta.url));

/** The URL path the assets are served under. */
export const pageAssetPath = "/pay/assets";
