import { beforeAll, describe, expect, it } from "vitest";
import { guideBlocks } from "../support/compile-guide-snippets.ts";
import { runGuideCommands } from "../support/run-guide-commands.ts";
import { type SharedPrism, sharedPrism } from "../support/shared-prism.ts";

const guidePath = "docs/contract-suite.md";
const documentedMock = "http://127.0.0.1:4010";

let prism: SharedPrism;
beforeAll(async () => {
  prism = await sharedPrism();
});

describe("docs/contract-suite.md", () => {
  it("pipes the --json report as documented, and its sample summary matches a run against the mock", async () => {
    const piped = guideBlocks(guidePath, "sh").find((block) => block.includes("--json"));
    expect(piped).toBeDefined();
    const run = await runGuideCommands((piped as string).replaceAll(documentedMock, prism.baseUrl));
    expect(run.status).toBe(0);
    const summary =
      /^\{\s+total: (\d+),\s+passed: (\d+),\s+failed: (\d+),\s+needsStatefulServer: (\d+),\s+needsCredential: (\d+)\s+\}\n$/.exec(
        run.stdout,
      );
    expect(summary, run.stdout + run.stderr).not.toBeNull();

    const [, total, passed, failed, stateful, credential] = summary as RegExpExecArray;
    const guide = guideBlocks(guidePath, "").join("\n");
    expect(guide).toContain(
      `\n${total} checks against ${documentedMock}, stateless target (a mock): ${passed} passed, ${failed} failed, ${stateful} need a stateful server, ${credential} need another credential (`,
    );
  });
});
