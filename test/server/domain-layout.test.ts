import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";

// How src/ is layered, read from the import statements of its files: no file imports itself
// through others; each resource folder of the domain imports only domain/shared/ (and the layers
// below the domain), and domain/shared/ no resource folder; the server, the contract suite, the
// command line and the webhook receiver do not import the client, src/wire/ (below the client and
// the server) imports nothing else of src/, and src/ never imports scripts/.

/** One import: the importing file, the specifier as written and the file it names (repository paths). */
interface ImportEdge {
  from: string;
  specifier: string;
  to: string;
}

/** Static imports and re-exports (`import … from`, `export … from`, `import "…"`) and `import("…")`. */
const importPatterns = [
  /^[ \t]*(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)"/gm,
  /^[ \t]*import\s*"([^"]+)"/gm,
  /\bimport\(\s*"([^"]+)"\s*\)/g,
];

/** The relative imports of one file's text, resolved against the file's folder. */
function importsOf(file: string, text: string): ImportEdge[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const edges: ImportEdge[] = [];
  for (const pattern of importPatterns) {
    for (const [, specifier = ""] of code.matchAll(pattern)) {
      if (!specifier.startsWith(".")) continue;
      edges.push({ from: file, specifier, to: path.posix.join(path.posix.dirname(file), specifier) });
    }
  }
  return edges;
}

/** The files of `edges` that import one another in a loop, each loop as its files in import order. */
function cyclesOf(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.unshift(member);
      } while (member !== file);
      const selfImport = next.get(file)?.includes(file) ?? false;
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return components;
}

const domain = "src/server/domain/";

/** The resource folder of a domain file (`payouts` for src/server/domain/payouts/…), `shared`, or undefined. */
function domainFolderOf(file: string): string | undefined {
  if (!file.startsWith(domain)) return undefined;
  const rest = file.slice(domain.length);
  return rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : undefined;
}

const under = (file: string, folder: string) => file.startsWith(`${folder}/`);

const clientFree = ["src/server", "src/contract", "src/cli", "src/webhooks"];

/** Why `edge` breaks the layering, or undefined when it keeps it. */
function layerBreach({ from, to }: ImportEdge): string | undefined {
  const fromFolder = domainFolderOf(from);
  const toFolder = domainFolderOf(to);
  if (fromFolder === "shared" && toFolder !== undefined && toFolder !== "shared") {
    return `domain/shared/ imports the resource folder domain/${toFolder}/`;
  }
  if (
    fromFolder !== undefined &&
    toFolder !== undefined &&
    toFolder !== fromFolder &&
    toFolder !== "shared"
  ) {
    return `the resource folder domain/${fromFolder}/ imports another, domain/${toFolder}/: move what both use to domain/shared/`;
  }
  if (clientFree.some((folder) => under(from, folder)) && under(to, "src/client")) {
    return "imports the client: what the client and the server share belongs in src/wire/";
  }
  if (under(from, "src/wire") && under(to, "src") && !under(to, "src/wire")) {
    return "src/wire/ sits below the rest of src/ and imports none of it";
  }
  if (under(to, "scripts")) {
    return "src/ imports scripts/";
  }
  return undefined;
}

const sourceFiles = readdirSync(path.join(repoRoot, "src"), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
const edges = sourceFiles.flatMap((file) => importsOf(file, readFileSync(path.join(repoRoot, file), "utf8")));

const describeEdge = (edge: ImportEdge) => `${edge.from} imports "${edge.specifier}" (${edge.to})`;

describe("the layout of src/", () => {
  it("reads the imports of every source file", () => {
    expect(sourceFiles.length).toBeGreaterThan(200);
    expect(edges.filter((edge) => edge.from === "src/cli/main.ts").map((edge) => edge.to)).toEqual([
      "src/cli/run-cli.ts",
    ]);
  });

  it("has no import cycle", () => {
    const cycles = cyclesOf(edges).map((files) =>
      edges
        .filter((edge) => files.includes(edge.from) && files.includes(edge.to))
        .map(describeEdge)
        .join("\n"),
    );
    expect(cycles).toEqual([]);
  });

  it("keeps each layer to what it may import", () => {
    const breaches = edges.flatMap((edge) => {
      const breach = layerBreach(edge);
      return breach === undefined ? [] : [`${describeEdge(edge)}: ${breach}`];
    });
    expect(breaches).toEqual([]);
  });
});

describe("the layout checks", () => {
  const edge = (from: string, to: string): ImportEdge => ({ from, specifier: to, to });

  it("find static, re-exported, side-effect and dynamic imports, not those in comments", () => {
    const text = [
      'import { a } from "./a.ts";',
      "import {",
      "  b,",
      '} from "../b.ts";',
      'export type { C } from "./c.ts";',
      'import "./d.ts";',
      'const e = await import("./e.ts");',
      'import { viem } from "viem";',
      '// import { f } from "./f.ts";',
      '/** import { g } from "./g.ts"; */',
    ].join("\n");
    expect(importsOf("src/x/y.ts", text).map((found) => found.to)).toEqual([
      "src/x/a.ts",
      "src/b.ts",
      "src/x/c.ts",
      "src/x/d.ts",
      "src/x/e.ts",
    ]);
  });

  it("find loops of imports, and only those", () => {
    expect(
      cyclesOf([edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d"), edge("e", "e")]),
    ).toEqual([["a", "b", "c"], ["e"]]);
    expect(cyclesOf([edge("a", "b"), edge("b", "c"), edge("a", "c")])).toEqual([]);
  });

  it("refuse imports across resource folders and up the layers", () => {
    const breaches = [
      edge("src/server/domain/payouts/create-payout.ts", "src/server/domain/requests/get-pay-calldata.ts"),
      edge("src/server/domain/shared/requests.ts", "src/server/domain/secure-payments/payment-amounts.ts"),
      edge("src/server/domain/sandbox/requests.ts", "src/server/domain/shared/requests.ts"),
      edge(
        "src/server/domain/payouts/create-payout.ts",
        "src/server/domain/payouts/create-recurring-payout.ts",
      ),
      edge("src/server/http/cors.ts", "src/server/domain/shared/client-ids.ts"),
      edge("src/contract/request-scenarios.ts", "src/client/create-client.ts"),
      edge("src/cli/webhooks/sandbox-connection.ts", "src/client/create-client.ts"),
      edge("src/client/batch-payout.ts", "src/wire/transaction-value.ts"),
      edge("src/wire/typed-data.ts", "src/client/payreq-error.ts"),
      edge("src/server/create-server.ts", "scripts/bundle-sources.mjs"),
      edge("src/cli/main.ts", "scripts/run-tool.ts"),
    ].map(layerBreach);
    expect(breaches).toEqual([
      expect.stringContaining("domain/payouts/ imports another, domain/requests/"),
      "domain/shared/ imports the resource folder domain/secure-payments/",
      undefined,
      undefined,
      undefined,
      expect.stringContaining("imports the client"),
      expect.stringContaining("imports the client"),
      undefined,
      expect.stringContaining("src/wire/ sits below"),
      "src/ imports scripts/",
      "src/ imports scripts/",
    ]);
  });
});
