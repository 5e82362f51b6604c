import { readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { type ProblemSource, reasonPhrases } from "../../src/problems/problem-catalogue.ts";
import { buildProblem, problemCatalogue } from "../../src/server/index.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { schemaErrors } from "./helpers.ts";

/** The API description's table rows: `| \`/problems/x\` | 400 | ...`, type -> status. */
function problemTableOf(text: string): Map<string, number> {
  const rows = [...text.matchAll(/^\| `(\/problems\/[a-z-]+)` \| (\d{3}) \|/gm)];
  return new Map(rows.map((row) => [row[1] as string, Number(row[2])]));
}

/** The types a document names with their statuses, in either column order (`| 413 | \`/problems/x\` |`). */
function problemMentionsOf(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const row of text.matchAll(
    /`(\d{3})` `(\/problems\/[a-z-]+)`|\| `(\d{3})` \| `(\/problems\/[a-z-]+)`/g,
  )) {
    found.set((row[2] ?? row[4]) as string, Number(row[1] ?? row[3]));
  }
  return found;
}

function catalogueOf(source: ProblemSource): Map<string, number> {
  const entries = Object.values(problemCatalogue).filter((entry) =>
    (entry.by as readonly ProblemSource[]).includes(source),
  );
  return new Map(entries.map((entry) => [entry.type, entry.status]));
}

const doc = (name: string) => readFileSync(path.join(repoRoot, "docs", name), "utf8");

describe("the problem catalogue", () => {
  it("lists exactly the server's problem types of the API description", () => {
    const description = String((loadBundledSpec().info as { description: string }).description);
    expect(catalogueOf("server")).toEqual(problemTableOf(description));
  });

  it("lists exactly the receiver's problem types of docs/webhooks.md", () => {
    expect(catalogueOf("receiver")).toEqual(problemMentionsOf(doc("webhooks.md")));
  });

  it("lists exactly the listener's and the proxy's problem types of docs/cli.md", () => {
    const commands = new Map([...catalogueOf("listener"), ...catalogueOf("proxy")]);
    expect(catalogueOf("proxy").size).toBe(2);
    expect(commands).toEqual(problemMentionsOf(doc("cli.md")));
  });

  it("spells each status's reason phrase as node:http does", () => {
    for (const { status } of Object.values(problemCatalogue)) {
      expect(reasonPhrases[status], String(status)).toBe(STATUS_CODES[status]);
    }
  });

  it("builds bodies that are Problems of the spec, with the compatibility members", () => {
    for (const kind of Object.keys(problemCatalogue) as (keyof typeof problemCatalogue)[]) {
      const body = buildProblem(kind, "What went wrong.", { instance: "/v1/currencies", requestId: "req-1" });
      expect(schemaErrors("Problem", body), kind).toBe("");
      expect(body.statusCode).toBe(body.status);
      expect(body.message).toBe(body.detail);
    }
    expect(buildProblem("rateLimited", "Slow down.", { instance: "/x", requestId: "r" })).toEqual({
      type: "/problems/rate-limited",
      title: "Too many requests",
      status: 429,
      detail: "Slow down.",
      instance: "/x",
      statusCode: 429,
      error: "Too Many Requests",
      message: "Slow down.",
      requestId: "r",
    });
  });

  it("lists validation issues only when there are some", () => {
    const issues = [{ path: "/query/wallet", message: "must be an EVM address" }];
    expect(buildProblem("validationFailed", "x", { instance: "/", requestId: "r", issues }).errors).toEqual(
      issues,
    );
    expect(
      "errors" in buildProblem("validationFailed", "x", { instance: "/", requestId: "r", issues: [] }),
    ).toBe(false);
  });
});
