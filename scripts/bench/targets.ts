import path from "node:path";
import { repoRoot } from "../run-tool.ts";
import { type ChildServer, findFreePort, startChildServer } from "./child-server.ts";

const bin = (tool: string) => path.join(repoRoot, "node_modules", ".bin", tool);
/** A request every target answers 2xx without side effects: the readiness probe. */
const rootProbe = { path: "/" };

/** `npm start`: the reference server as shipped, request and response validation on. */
export async function startReferenceServer(): Promise<ChildServer> {
  const port = await findFreePort();
  return startChildServer("npm", ["start", "--silent", "--", "--port", String(port)], port, rootProbe);
}

/** `npm start -- --chain`: the server with anvil as a local sepolia and the contracts installed on it. */
export async function startReferenceServerWithChain(): Promise<ChildServer> {
  const port = await findFreePort();
  return startChildServer(
    "npm",
    ["start", "--silent", "--", "--chain", "--port", String(port)],
    port,
    rootProbe,
  );
}

/** The Prism mock on the same spec, with its logging quiet (it halves Prism's throughput otherwise). */
export async function startPrismMock(): Promise<ChildServer> {
  const port = await findFreePort();
  const spec = path.join(repoRoot, "generated", "openapi.json");
  return startChildServer(
    bin("prism"),
    ["mock", spec, "--host", "127.0.0.1", "--port", String(port), "-v", "error"],
    port,
    { path: "/v1/currencies?network=sepolia", headers: { "x-api-key": "any" } },
  );
}

/**
 * Bare Express answering the bodies the reference server answered: the ceiling. With `validate`,
 * the same app behind express-openapi-validator's middleware, requests and answers validated.
 */
export async function startBareExpress(
  answers: Record<string, { status: number; body: string }>,
  options: { validate?: boolean } = {},
): Promise<ChildServer> {
  const port = await findFreePort();
  const script = path.join(repoRoot, "scripts", "bench", "baseline-server.ts");
  const [firstRoute] = Object.keys(answers);
  const args = [script, String(port), JSON.stringify(answers), ...(options.validate ? ["--validate"] : [])];
  return startChildServer(bin("tsx"), args, port, {
    path: (firstRoute ?? "GET /").split(" ")[1] as string,
    headers: { "x-api-key": "any" },
  });
}

/** Bare node:http answering the same bodies: the floor under every framework. */
export async function startBareNodeHttp(
  answers: Record<string, { status: number; body: string }>,
): Promise<ChildServer> {
  const port = await findFreePort();
  const script = path.join(repoRoot, "scripts", "bench", "baseline-http.ts");
  const [firstRoute] = Object.keys(answers);
  return startChildServer(bin("tsx"), [script, String(port), JSON.stringify(answers)], port, {
    path: (firstRoute ?? "GET /").split(" ")[1] as string,
  });
}
