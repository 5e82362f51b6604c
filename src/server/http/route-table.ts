import type { SpecOperation } from "../../spec/operations.ts";

export type RouteMatch =
  | { kind: "operation"; route: SpecOperation; params: Record<string, string> }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "no-path" };

interface PathEntry {
  segments: string[];
  literalCount: number;
  /** Operations of the path by upper-case method. */
  operations: Map<string, SpecOperation>;
}

function decodeSegment(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function matchPath(entry: PathEntry, parts: string[]): Record<string, string> | undefined {
  if (parts.length !== entry.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of entry.segments.entries()) {
    const part = parts[index] as string;
    if (segment.startsWith("{")) {
      const value = part === "" ? undefined : decodeSegment(part);
      if (value === undefined) return undefined;
      params[segment.slice(1, -1)] = value;
    } else if (segment !== part) return undefined;
  }
  return params;
}

/** The spec's path operations, matched by method and path: the one place a request finds its operation. */
export function buildRouteTable(operations: readonly SpecOperation[]) {
  const byTemplate = new Map<string, PathEntry>();
  for (const operation of operations) {
    if (operation.kind !== "path") continue;
    let entry = byTemplate.get(operation.key);
    if (!entry) {
      const segments = operation.key.split("/").slice(1);
      entry = {
        segments,
        literalCount: segments.filter((segment) => !segment.startsWith("{")).length,
        operations: new Map(),
      };
      byTemplate.set(operation.key, entry);
    }
    entry.operations.set(operation.method, operation);
  }
  // Literal segments win over parameters when two templates could match the same path.
  const entries = [...byTemplate.values()].sort((a, b) => b.literalCount - a.literalCount);
  // A path with no parameter is found by its text: no template of as many segments has more literals.
  const literalPaths = new Map(
    [...byTemplate]
      .filter(([, entry]) => entry.literalCount === entry.segments.length)
      .map(([template, entry]) => [template, entry.operations]),
  );

  return {
    routes: entries.flatMap((entry) => [...entry.operations.values()]),
    match(method: string, path: string): RouteMatch {
      const literal = literalPaths.get(path)?.get(method);
      if (literal) return { kind: "operation", route: literal, params: {} };
      const parts = path.split("/").slice(1);
      const allowed = new Set<string>();
      for (const entry of entries) {
        const params = matchPath(entry, parts);
        if (!params) continue;
        const wanted = method.toUpperCase();
        // HEAD is answered as the GET of the same path, without a body (RFC 9110, 9.3.2).
        const route =
          entry.operations.get(wanted) ?? (wanted === "HEAD" ? entry.operations.get("GET") : undefined);
        if (route) return { kind: "operation", route, params };
        for (const other of entry.operations.keys()) allowed.add(other);
        if (entry.operations.has("GET")) allowed.add("HEAD");
      }
      return allowed.size > 0 ? { kind: "wrong-method", allowed: [...allowed] } : { kind: "no-path" };
    },
  };
}

export type RouteTable = ReturnType<typeof buildRouteTable>;
