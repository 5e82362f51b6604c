// `npm start` and `npm run serve`: the reference server, as `payreq serve` runs it, from a bundle of
// scripts/start-server.ts and everything it imports (scripts/bundle-sources.mjs), rebuilt when a
// source changed. One Node process and no TypeScript loader: it answers well within a second.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freshBundle, repoRoot } from "./bundle-sources.mjs";

const bundle = await freshBundle(
  path.join(repoRoot, "scripts", "start-server.ts"),
  path.join(repoRoot, ".cache", "start", "start-server.mjs"),
);
await import(pathToFileURL(bundle).href);
