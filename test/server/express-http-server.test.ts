import { execFileSync } from "node:child_process";
import { createServer as createNodeServer, IncomingMessage, type Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express, { type Express } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { createExpressHttpServer } from "../../src/server/http/express-http-server.ts";

const moduleUrl = pathToFileURL(path.join(repoRoot, "src", "server", "http", "express-http-server.ts")).href;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app answering what Express gives a request: its path, a header through req.get, and its app. */
function echoApp(): Express {
  const app = express();
  app.post("/echo/:name", express.json(), (req, res) => {
    res.status(201).json({
      name: req.params.name,
      path: req.path,
      host: req.get("host"),
      sameApp: req.app === app,
      body: req.body,
    });
  });
  return app;
}

describe("the reference server's HTTP server (createExpressHttpServer)", () => {
  it("creates each request and response with the app's prototypes before Express sees them", async () => {
    const app = echoApp();
    const server = createExpressHttpServer(app, { requestTimeoutMs: 30_000 });
    const seen: { request: boolean; response: boolean; node: boolean }[] = [];
    server.prependListener("request", (req, res) =>
      seen.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        node: req instanceof IncomingMessage && res instanceof ServerResponse,
      }),
    );
    const base = await listening(server);
    for (const name of ["a", "b"]) {
      const answer = await fetch(`${base}/echo/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"n":1}',
      });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({
        name,
        path: `/echo/${name}`,
        host: base.slice("http://".length),
        sameApp: true,
        body: { n: 1 },
      });
    }
    expect(seen).toEqual([
      { request: true, response: true, node: true },
      { request: true, response: true, node: true },
    ]);
  });

  it("serves the app through any other server as Express does, and makes one pair of classes per app", async () => {
    const app = echoApp();
    createExpressHttpServer(app, { requestTimeoutMs: 30_000 });
    const prototypes = [app.request, app.response];
    createExpressHttpServer(app, { requestTimeoutMs: 30_000 });
    expect([app.request, app.response]).toEqual(prototypes);

    const base = await listening(createNodeServer(app));
    const answer = await fetch(`${base}/echo/plain`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[]",
    });
    expect(await answer.json()).toMatchObject({ name: "plain", sameApp: true, body: [] });
  });

  it("gives every request one hidden class in V8, where Express's own server gives each a new one", () => {
    // V8's %HaveSameMap, in a process of its own started with the flag that allows it.
    const script = `
      import { createServer } from "node:http";
      import express from "express";
      import { createExpressHttpServer } from ${JSON.stringify(moduleUrl)};
      const haveSameMap = new Function("a", "b", "return %HaveSameMap(a, b)");
      async function maps(makeServer) {
        const app = express();
        const seen = [];
        app.get("/", (req, res) => { seen.push([req, res]); res.send("ok"); });
        const server = makeServer(app);
        await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
        for (let i = 0; i < 3; i++) await (await fetch("http://127.0.0.1:" + server.address().port + "/")).text();
        server.close();
        return { request: haveSameMap(seen[1][0], seen[2][0]), response: haveSameMap(seen[1][1], seen[2][1]) };
      }
      console.log(JSON.stringify({ ours: await maps((app) => createExpressHttpServer(app, { requestTimeoutMs: 30000 })), express: await maps((app) => createServer(app)) }));
    `;
    const printed = execFileSync(
      process.execPath,
      ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "--eval", script],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(JSON.parse(printed)).toEqual({
      ours: { request: true, response: true },
      express: { request: false, response: false },
    });
  });
});
