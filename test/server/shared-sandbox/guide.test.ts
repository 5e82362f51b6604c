import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { guideBlocks } from "../../support/compile-guide-snippets.ts";
import { startServerScriptProcess } from "../../support/guide-walkthrough.ts";
import { describeWithPostgres, postgresBinDirectory, sharedPostgres } from "../../support/postgres.ts";
import { runGuideCommands } from "../../support/run-guide-commands.ts";

// docs/shared-sandbox.md as a team follows it: a user and a database made as the guide says, a
// configuration file written as it says, and the server started on both.
const guide = "docs/shared-sandbox.md";

describeWithPostgres("docs/shared-sandbox.md, on a PostgreSQL server of the test run", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "payreq-shared-guide-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("creates the user and its database, writes sandbox.json, and a server starts on both with the team's key", async () => {
    const [setUp] = guideBlocks(guide, "sh", "One database");
    const [configFile] = guideBlocks(guide, "sh", "Two instances behind any load balancer");
    expect(setUp).toMatch(/^psql .*CREATE USER payreq_sandbox/);
    expect(configFile).toMatch(/^cat > sandbox\.json <<'JSON'\n/);
    // The run's server, reached as its superuser: where the guide says a superuser runs the block.
    const { port } = new URL(await (await sharedPostgres()).createDatabase());
    const prepared = await runGuideCommands(
      `export PATH=${postgresBinDirectory}:$PATH PGHOST=127.0.0.1 PGPORT=${port} PGUSER=payreq PGDATABASE=postgres\ncd ${folder}\n${setUp}${configFile}`,
    );
    expect(prepared.stderr).toBe("");
    expect(prepared.status).toBe(0);
    const config = JSON.parse(readFileSync(path.join(folder, "sandbox.json"), "utf8"));
    const teamKey = config.accounts[0].apiKeys[0] as string;

    const { server, banner, url } = await startServerScriptProcess([
      "--port",
      "0",
      "--quiet",
      "--config",
      path.join(folder, "sandbox.json"),
      "--database",
      `postgres://payreq_sandbox:change-me@127.0.0.1:${port}/payreq_sandbox`,
    ]);
    try {
      expect(banner).toContain(`Store:    PostgreSQL 127.0.0.1:${port}/payreq_sandbox`);
      expect(banner).toContain("Public:   https://sandbox.example.com");
      const answer = await fetch(`${url}/v1/currencies?network=base`, { headers: { "x-api-key": teamKey } });
      expect(answer.status).toBe(200);
      const refused = await fetch(`${url}/v1/currencies?network=base`, {
        headers: { "x-api-key": "sk_sandbox_3b9f1c2d7e8a4f60" },
      });
      expect(refused.status).toBe(401);
    } finally {
      await server.kill();
    }
  });
});
