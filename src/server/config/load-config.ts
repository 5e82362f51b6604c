import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv";
import validate from "../../../generated/sandbox-config-validator.cjs";
import { allowListHint, createTargetAllowList } from "../webhook-delivery/target-allow-list.ts";
import { hostOf, refuseLiteralHost } from "../webhook-delivery/target-guard.ts";
import { describeWebhookUrlProblem } from "../webhook-delivery/webhook-url.ts";
import { configPatternHints } from "./config-schema.ts";
import { configuredEndpointId, type ResolvedConfig, type SandboxConfig } from "./sandbox-config.ts";
import { findWebhookSettingsProblems } from "./webhook-settings-problems.ts";

/** A configuration that cannot be used; `problems` names each bad field. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(`${source} is not a valid sandbox configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** `/accounts/0/apiKeys/1` -> `accounts[0].apiKeys[1]`. */
function fieldName(pointer: string): string {
  const name = pointer
    .split("/")
    .slice(1)
    .map((token) => (/^\d+$/.test(token) ? `[${token}]` : `.${token}`))
    .join("")
    .replace(/^\./, "");
  return name === "" ? "(the whole file)" : name;
}

/** "1 character", "16 characters", "1 item". */
const counting = (noun: string) => (count: number) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const characters = counting("character");
const countedKeywords: Record<string, ((count: number) => string) | undefined> = {
  minLength: characters,
  maxLength: characters,
  minItems: counting("item"),
  maxItems: counting("item"),
};

function describe(error: ErrorObject, value: unknown): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") {
    const field = fieldName(`${error.instancePath}/${String(params.additionalProperty)}`);
    return `${field}: unknown field; remove it or check its spelling`;
  }
  if (error.keyword === "required") {
    return `${fieldName(`${error.instancePath}/${String(params.missingProperty)}`)}: is required`;
  }
  // Secrets are never echoed, not even invalid ones.
  const secret = /\/(apiKeys\/\d+|webhookSecret|webhookEndpoints\/\d+\/secret|orchestrators\/\d+\/key)$/.test(
    error.instancePath,
  );
  const shown = secret ? `a value of ${characters(String(value).length)}` : JSON.stringify(value);
  const counted = countedKeywords[error.keyword];
  if (counted) {
    const bound = error.keyword.startsWith("min") ? "at least" : "at most";
    return `${fieldName(error.instancePath)}: must have ${bound} ${counted(Number(params.limit))}, got ${shown}`;
  }
  if (error.keyword === "pattern") {
    const hint = configPatternHints[String(params.pattern)] ?? `a value matching ${String(params.pattern)}`;
    return `${fieldName(error.instancePath)}: must be ${hint}, got ${shown}`;
  }
  return `${fieldName(error.instancePath)}: ${error.message ?? "is invalid"}, got ${shown}`;
}

function valueAt(document: unknown, pointer: string): unknown {
  let current = document;
  for (const token of pointer.split("/").slice(1)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function findDuplicates(config: SandboxConfig): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const claim = (kind: string, value: string, field: string) => {
    const earlier = seen.get(`${kind}:${value}`);
    if (earlier) problems.push(`${field}: repeats the ${kind} of ${earlier}; each must be unique`);
    else seen.set(`${kind}:${value}`, field);
  };
  config.accounts.forEach((account, a) => {
    claim("account id", account.id, `accounts[${a}].id`);
    account.apiKeys.forEach((key, k) => {
      claim("API key", key, `accounts[${a}].apiKeys[${k}]`);
    });
    (account.webhookEndpoints ?? []).forEach((endpoint, e) => {
      claim(
        "webhook endpoint id",
        endpoint.id ?? configuredEndpointId(a, e),
        `accounts[${a}].webhookEndpoints[${e}].id`,
      );
    });
    (account.orchestrators ?? []).forEach((orchestrator, o) => {
      claim("orchestrator id", orchestrator.id, `accounts[${a}].orchestrators[${o}].id`);
      claim("orchestrator key", orchestrator.key, `accounts[${a}].orchestrators[${o}].key`);
    });
    account.clientIds.forEach((client, c) => {
      claim("client ID record id", client.id, `accounts[${a}].clientIds[${c}].id`);
      claim("client ID", client.clientId, `accounts[${a}].clientIds[${c}].clientId`);
    });
  });
  return problems;
}

/**
 * The webhook endpoint URLs that cannot be used: malformed ones, and IP literals and localhost
 * names the address guard refuses, unless `allowWebhookTargets` lists them. Names are resolved
 * at each delivery instead, as DNS answers change.
 */
function findUnusableWebhookUrls(config: SandboxConfig): string[] {
  const problems: string[] = [];
  const allowList = createTargetAllowList(config.allowWebhookTargets);
  config.accounts.forEach((account, a) => {
    (account.webhookEndpoints ?? []).forEach((endpoint, e) => {
      const field = `accounts[${a}].webhookEndpoints[${e}].url`;
      const problem = describeWebhookUrlProblem(endpoint.url);
      if (problem) {
        problems.push(`${field}: ${problem}`);
        return;
      }
      if (allowList.allows(endpoint.url)) return;
      const refused = refuseLiteralHost(hostOf(new URL(endpoint.url)));
      if (refused) problems.push(`${field}: must reach a public address: ${refused}${allowListHint}`);
    });
  });
  return problems;
}

/**
 * Checks a parsed configuration and fills in its defaults (on a copy); throws a ConfigError naming
 * every bad field.
 */
export function parseConfig(given: unknown, source = "configuration"): ResolvedConfig {
  const value = structuredClone(given);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).filter((error) => error.keyword !== "if");
    throw new ConfigError(
      source,
      errors.map((error) => describe(error, valueAt(value, error.instancePath))),
    );
  }
  const config = value as unknown as ResolvedConfig;
  const problems = [
    ...findDuplicates(config),
    ...findUnusableWebhookUrls(config),
    ...findWebhookSettingsProblems(config),
  ];
  if (problems.length > 0) throw new ConfigError(source, problems);
  return config;
}

/** Reads and checks a JSON configuration file. */
export function loadConfigFile(file: string): ResolvedConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, [`cannot be read: ${(error as NodeJS.ErrnoException).code ?? "error"}`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, [`is not valid JSON: ${(error as Error).message}`]);
  }
  return parseConfig(parsed, file);
}
