// Bare Express answering recorded bodies: the ceiling the reference server is measured against.
// With `--validate`, the same app validates each request and answer with express-openapi-validator's
// middleware on the bundled spec: what validating through that library's public API costs.
import { readFileSync } from "node:fs";
import path from "node:path";
import express from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { repoRoot } from "../run-tool.ts";

const [portArgument, answersJson, mode] = process.argv.slice(2);
const answers = JSON.parse(answersJson ?? "{}") as Record<string, { status: number; body: string }>;

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
if (mode === "--validate") {
  app.use(express.json());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: JSON.parse(readFileSync(path.join(repoRoot, "generated", "openapi.json"), "utf8")),
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false, removeAdditional: true },
      validateResponses: { allErrors: true },
      validateSecurity: false,
      ignoreUndocumented: true,
    }),
  );
}
for (const [route, answer] of Object.entries(answers)) {
  const [method, target] = route.split(" ") as [string, string];
  const routePath = target.split("?")[0] as string;
  // res.json: express-openapi-validator checks answers sent through it.
  const body = JSON.parse(answer.body) as unknown;
  const handle: express.RequestHandler = (_req, res) => {
    res.status(answer.status).json(body);
  };
  if (method === "GET") app.get(routePath, handle);
  else app.post(routePath, mode === "--validate" ? [] : express.json(), handle);
}
app.listen(Number(portArgument), "127.0.0.1");
