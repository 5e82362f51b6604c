import type { ContractTarget, TargetCredentials as Credentials } from "../../contract/target.ts";
import { UsageError } from "../cli-errors.ts";
import { readHttpUrl } from "../option-values.ts";
import { parseCommandLine } from "../parse-command-line.ts";

/** `npm run contract -- --help`. */
export const contractUsage = `Usage: npm run contract -- --base-url URL (--api-key KEY | --client-id ID --origin ORIGIN) [options]

Checks a deployment of the Payment Request Service against generated/openapi.json: a valid call per
operation, calls with missing or wrong credentials, and a set of invalid inputs per operation.
Prints one line per check (PASS, FAIL, STATEFUL or CREDENTIAL) and a summary.

Options:
  --base-url URL              the deployment, e.g. http://127.0.0.1:3000 (required)
  --api-key KEY               an API key (or set PAYREQ_API_KEY); never printed
  --client-id ID              a client ID, with --origin set to one of its allowed domains
  --origin ORIGIN             e.g. https://shop.example.com
  --extra-api-key KEY         a second credential, of the other kind than the first, so that
  --extra-client-id ID          the checks that need both kinds can run
  --extra-origin ORIGIN
  --orchestrator-key KEY      an orchestrator key (orc_...), or set PAYREQ_ORCHESTRATOR_KEY: the
                              orchestrator operations take only that; never printed
  --stateful                  the target keeps state and enforces every rule (a real server):
                              run the checks a stateless mock cannot pass (wrong keys, origins,
                              unknown ids, body size, create-then-read); without it they are
                              reported STATEFUL and not sent
  --strict-bodies             the target refuses body members the spec does not describe (a
                              reference server run with --strict-bodies); without it a stateful
                              target must ignore them, as the service does. A mock reads the
                              closed schemas literally, so without --stateful it is implied
  --operation ID              run only the checks of this operation (its operationId, such as
                              createSecurePayment); repeat it for several
  --by-operation              print one line per operation instead of one per check: ANSWERS
                              when every valid call of it passed, NO otherwise, then its
                              checks by outcome (a mock's report shows what it can answer)
  --json                      print the results, a summary per operation and the summary as JSON
  --junit FILE                also write the results as a JUnit XML report to FILE (one test
                              suite per operation; checks not sent are skipped, with why)
  --timeout MS                time limit per request (default 15000)
  --help                      show this help

Exit status: 0 when no check failed, 1 when one did, 2 for bad arguments.`;

/** The command as its messages name it. */
export const contractCommand = "npm run contract --";
const command = contractCommand;

/** The credentials given as the main or the extra one. */
type ApiKeyOrClientId = Exclude<Credentials, { orchestratorKey: string }>;

function readCredentials(
  prefix: string,
  apiKey: string | undefined,
  clientId: string | undefined,
  origin: string | undefined,
): ApiKeyOrClientId | undefined {
  if (apiKey !== undefined && clientId !== undefined) {
    throw new UsageError(`give either --${prefix}api-key or --${prefix}client-id, not both`, command);
  }
  if (apiKey !== undefined) {
    if (apiKey === "") throw new UsageError(`--${prefix}api-key is empty`, command);
    if (origin !== undefined)
      throw new UsageError(`--${prefix}origin goes with --${prefix}client-id, not an API key`, command);
    return { apiKey };
  }
  if (clientId === undefined) {
    if (origin !== undefined) throw new UsageError(`--${prefix}origin needs --${prefix}client-id`, command);
    return undefined;
  }
  if (clientId === "") throw new UsageError(`--${prefix}client-id is empty`, command);
  if (origin === undefined)
    throw new UsageError(
      `--${prefix}client-id needs --${prefix}origin (one of its allowed domains)`,
      command,
    );
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new UsageError(
      `--${prefix}origin must be an origin such as https://shop.example.com, got "${origin}"`,
      command,
    );
  }
  if (parsed.origin !== origin.replace(/\/$/, "")) {
    throw new UsageError(
      `--${prefix}origin must be a bare origin (scheme, host, port), got "${origin}"`,
      command,
    );
  }
  return { clientId, origin: parsed.origin };
}

/**
 * The options of `npm run contract`, read from its arguments and environment (PAYREQ_API_KEY,
 * PAYREQ_ORCHESTRATOR_KEY); undefined for --help. A bad command line throws a UsageError.
 */
export function readContractCommandLine(args: readonly string[], env: NodeJS.ProcessEnv) {
  const parsed = parseCommandLine([...args], {
    command,
    options: {
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      "client-id": { type: "string" },
      origin: { type: "string" },
      "extra-api-key": { type: "string" },
      "extra-client-id": { type: "string" },
      "extra-origin": { type: "string" },
      "orchestrator-key": { type: "string" },
      stateful: { type: "boolean" },
      "strict-bodies": { type: "boolean" },
      json: { type: "boolean" },
      junit: { type: "string" },
      "by-operation": { type: "boolean" },
      operation: { type: "string", multiple: true },
      timeout: { type: "string" },
    },
  });
  if (parsed.help) return undefined;
  const { values } = parsed;
  const baseUrl = values["base-url"];
  if (baseUrl === undefined) throw new UsageError("--base-url is required", command);
  // Refuses credentials in the URL: the report prints the base URL on every line.
  const parsedBase = new URL(readHttpUrl(baseUrl, "--base-url", command, "http://127.0.0.1:3000"));
  const fromEnvironment = env.PAYREQ_API_KEY || undefined;
  const apiKey = values["api-key"] ?? (values["client-id"] === undefined ? fromEnvironment : undefined);
  const main = readCredentials("", apiKey, values["client-id"], values.origin);
  if (!main)
    throw new UsageError(
      "give a credential: --api-key KEY (or PAYREQ_API_KEY), or --client-id ID --origin ORIGIN",
      command,
    );
  const extra = readCredentials(
    "extra-",
    values["extra-api-key"],
    values["extra-client-id"],
    values["extra-origin"],
  );
  if (extra && "apiKey" in extra === "apiKey" in main) {
    throw new UsageError(
      "the extra credential must be of the other kind than the first (API key vs client ID)",
      command,
    );
  }
  const orchestratorKey = values["orchestrator-key"] ?? (env.PAYREQ_ORCHESTRATOR_KEY || undefined);
  if (orchestratorKey === "") throw new UsageError("--orchestrator-key is empty", command);
  const timeout = values.timeout ?? "15000";
  const timeoutMs = Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new UsageError(`--timeout must be a whole number of milliseconds, got "${timeout}"`, command);
  }
  const target: ContractTarget = {
    baseUrl: parsedBase.href.replace(/\/$/, ""),
    ...main,
    ...(extra ? { extra } : {}),
    ...(orchestratorKey ? { orchestratorKey } : {}),
  };
  return {
    target,
    stateful: values.stateful,
    strictBodies: values["strict-bodies"] || !values.stateful,
    json: values.json,
    byOperation: values["by-operation"],
    timeoutMs,
    ...(values.junit !== undefined ? { junitFile: values.junit } : {}),
    ...(values.operation.length > 0 ? { onlyOperations: values.operation } : {}),
  };
}
