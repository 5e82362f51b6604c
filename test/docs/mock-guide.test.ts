import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { guideBlocks } from "../support/compile-guide-snippets.ts";
import { runGuideCommands } from "../support/run-guide-commands.ts";

const guidePath = "docs/mock.md";
const mockUsage = "Serves the Prism mock of generated/openapi.json.";

/** A documented command with --help added, so that it says what it runs instead of running it. */
function asHelp(command: string): string {
  const bare = command.replace(/\s+#.*$/, "");
  if (bare.endsWith(" --help")) return bare;
  return bare.includes(" -- ") ? `${bare} --help` : `${bare} -- --help`;
}

describe("docs/mock.md", () => {
  it("names only commands that run the mock in its opening sentence", async () => {
    const guide = readFileSync(path.join(repoRoot, guidePath), "utf8");
    const opening = guide.split("\n\n")[1] as string;
    const commands = [...opening.matchAll(/`((?:npm|npx) [^`]+)`/g)].map((match) => match[1] as string);
    expect(commands).toEqual(["npm run mock", "npx payreq mock"]);
    for (const command of commands) {
      const help = await runGuideCommands(command.startsWith("npx") ? `${command} --help` : asHelp(command));
      expect(help.status).toBe(0);
      expect(help.stdout).toContain(mockUsage);
    }
  });

  it("shows only options the mock takes", async () => {
    const [commands] = guideBlocks(guidePath, "sh");
    const lines = (commands as string).trim().split("\n");
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      const help = await runGuideCommands(asHelp(line));
      expect(help.stderr, line).not.toMatch(/unknown option|must be/);
      expect(help.status, line).toBe(0);
      expect(help.stdout, line).toContain(mockUsage);
    }
  });
});
