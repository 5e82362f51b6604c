import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { createDefaultConfig } from "../../src/server/index.ts";
import { startTestServer, type TestServer } from "../server/helpers.ts";

const run = promisify(execFile);

/** The guide's viem snippet, as written. */
function snippet(): string {
  const text = readFileSync(path.join(repoRoot, "docs", "auth-api.md"), "utf8");
  const block = /```js\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error("docs/auth-api.md has no js block");
  return block;
}

describe("docs/auth-api.md", () => {
  let server: TestServer;
  let folder: string;
  beforeAll(async () => {
    // The snippet's receiver is let through the address guard: the test makes no DNS look-up.
    server = await startTestServer({
      config: { ...createDefaultConfig(), allowWebhookTargets: ["https://shop.example.com"] },
    });
    // Inside the repository, so that the snippet finds viem as a reader's copy would.
    folder = mkdtempSync(path.join(repoRoot, "test-results-auth-guide-"));
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("signs in with a wallet and creates a webhook, as the runnable snippet is written", async () => {
    const file = path.join(folder, "sign-in.mjs");
    writeFileSync(file, snippet());
    const { stdout, stderr } = await run(process.execPath, [file], {
      env: { ...process.env, BASE: server.url },
    });
    expect(stderr).toBe("");
    const [signedIn, webhook] = stdout.trim().split("\n");
    expect(signedIn).toMatch(/^signed in: acct_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(webhook).toMatch(/^webhook: we_[0-9A-HJKMNP-TV-Z]{26} secret: whsec_[0-9a-f]{48}$/);
  });
});
