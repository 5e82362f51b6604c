import type { ApiSpec, SecurityRequirement } from "../api-spec.ts";

const methods = ["get", "put", "post", "delete", "patch"] as const;

/** One operation of the spec, as the middleware needs it before any validation runs. */
export interface OperationRoute {
  method: string;
  pathTemplate: string;
  operationId: string;
  acceptsApiKey: boolean;
  acceptsClientId: boolean;
  hasBody: boolean;
  /** Whether the body may be left out (a request body with `required: false`). */
  bodyOptional: boolean;
  /** Names of the path parameters, in order. */
  pathParams: string[];
}

export type RouteMatch =
  | { kind: "operation"; route: OperationRoute; params: Record<string, string> }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "no-path" };

interface PathEntry {
  template: string;
  segments: string[];
  literalCount: number;
  operations: Map<string, OperationRoute>;
}

export function resolveRef(spec: ApiSpec, node: unknown): Record<string, unknown> {
  let current = node as Record<string, unknown>;
  while (current && typeof current.$ref === "string") {
    const pointer = current.$ref.replace(/^#\//, "").split("/");
    current = pointer.reduce<Record<string, unknown>>(
      (value, token) => value[token.replaceAll("~1", "/").replaceAll("~0", "~")] as Record<string, unknown>,
      spec,
    );
  }
  return current;
}

/** The operations of the spec's paths (webhooks are not routes), matched by method and path. */
export function buildRouteTable(spec: ApiSpec) {
  const entries: PathEntry[] = [];
  for (const [template, rawItem] of Object.entries(spec.paths)) {
    const item = resolveRef(spec, rawItem);
    const segments = template.split("/").slice(1);
    const entry: PathEntry = {
      template,
      segments,
      literalCount: segments.filter((segment) => !segment.startsWith("{")).length,
      operations: new Map(),
    };
    for (const method of methods) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const security = (operation.security ?? spec.security ?? []) as SecurityRequirement[];
      entry.operations.set(method, {
        method,
        pathTemplate: template,
        operationId: String(operation.operationId),
        acceptsApiKey: security.some((requirement) => "ApiKeyAuth" in requirement),
        acceptsClientId: security.some((requirement) => "ClientIdAuth" in requirement),
        hasBody: operation.requestBody !== undefined,
        bodyOptional: resolveRef(spec, operation.requestBody)?.required !== true,
        pathParams: segments.filter((s) => s.startsWith("{")).map((s) => s.slice(1, -1)),
      });
    }
    entries.push(entry);
  }
  // Literal segments win over parameters when two templates could match the same path.
  entries.sort((a, b) => b.literalCount - a.literalCount);

  function matchPath(entry: PathEntry, path: string): Record<string, string> | undefined {
    const parts = path.split("/").slice(1);
    if (parts.length !== entry.segments.length) return undefined;
    const params: Record<string, string> = {};
    for (const [index, segment] of entry.segments.entries()) {
      const part = parts[index] as string;
      if (segment.startsWith("{")) {
        if (part === "") return undefined;
        try {
          params[segment.slice(1, -1)] = decodeURIComponent(part);
        } catch {
          return undefined;
        }
      } else if (segment !== part) return undefined;
    }
    return params;
  }

  return {
    routes: entries.flatMap((entry) => [...entry.operations.values()]),
    match(method: string, path: string): RouteMatch {
      const allowed = new Set<string>();
      for (const entry of entries) {
        const params = matchPath(entry, path);
        if (!params) continue;
        const route = entry.operations.get(method.toLowerCase());
        if (route) return { kind: "operation", route, params };
        for (const other of entry.operations.keys()) allowed.add(other.toUpperCase());
      }
      return allowed.size > 0 ? { kind: "wrong-method", allowed: [...allowed] } : { kind: "no-path" };
    },
  };
}

export type RouteTable = ReturnType<typeof buildRouteTable>;
