import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generatedFiles } from "./build-steps.ts";
import { quietToolEnv, repoRoot } from "./run-tool.ts";

const usage = `Usage: npm run mock -- [--port 4010] [--host 127.0.0.1] [--dynamic]

Serves the Prism mock of generated/openapi.json. It validates every request against the spec
and answers with the spec's named examples, or with generated data when --dynamic is given.`;

function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: "string", default: process.env.PORT ?? "4010" },
        host: { type: "string", default: "127.0.0.1" },
        dynamic: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`--port must be a whole number from 1 to 65535, got "${values.port}"`);
    }
    return { port, host: values.host, dynamic: values.dynamic };
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

const options = readOptions();
const spec = path.join(repoRoot, generatedFiles.bundledSpec);
if (!existsSync(spec)) {
  console.error(`${generatedFiles.bundledSpec} is missing: run \`npm run build\` first.`);
  process.exit(1);
}

const prismArgs = ["mock", spec, "--host", options.host, "--port", String(options.port)];
if (options.dynamic) prismArgs.push("--dynamic");
const prism = spawn(path.join(repoRoot, "node_modules", ".bin", "prism"), prismArgs, {
  cwd: repoRoot,
  env: quietToolEnv,
  stdio: ["ignore", "pipe", "inherit"],
});

let announced = false;
// Prism's output arrives in chunks that may split its "listening" line.
let pending = "";
prism.stdout.setEncoding("utf8");
prism.stdout.on("data", (chunk: string) => {
  process.stdout.write(chunk);
  if (announced) return;
  pending = (pending + chunk).slice(-500);
  if (pending.includes("Prism is listening")) {
    announced = true;
    const base = `http://${options.host}:${options.port}`;
    console.log(
      [
        "",
        `payreq mock (Prism, ${options.dynamic ? "dynamic data" : "spec examples"}) is serving the Payment Request Service API`,
        `  API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`,
        `  Spec:  ${spec}`,
        `  Docs:  ${path.join(repoRoot, generatedFiles.docs)} (open in a browser, works offline)`,
        "Stop with Ctrl+C.",
        "",
      ].join("\n"),
    );
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => prism.kill(signal));
}
prism.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
