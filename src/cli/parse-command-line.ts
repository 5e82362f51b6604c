import { parseArgs } from "node:util";
import { UsageError } from "./cli-errors.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** A string option that may be repeated: its value is the list of every value given. */
  multiple?: true;
}
export type OptionSpecs = Record<string, OptionSpec>;

export type OptionValues<Options extends OptionSpecs> = {
  [Name in keyof Options]: Options[Name]["type"] extends "string"
    ? Options[Name]["multiple"] extends true
      ? string[]
      : string | undefined
    : boolean;
};

export interface CommandLineSpec<Options extends OptionSpecs> {
  /** The command as typed, for messages: `payreq webhooks listen`. */
  command: string;
  options: Options;
  /** How many positional arguments the command takes (none unless given). */
  maxPositionals?: number;
}

export type ParsedCommandLine<Options extends OptionSpecs> =
  | { help: true }
  | { help: false; values: OptionValues<Options>; positionals: string[] };

/**
 * Parses with node:util parseArgs, leniently, then judges every token itself so that each
 * message names the flag: unknown options, missing values, values given to switches.
 * `--help` or `-h` anywhere wins over every other problem.
 */
export function parseCommandLine<Options extends OptionSpecs>(
  args: readonly string[],
  spec: CommandLineSpec<Options>,
): ParsedCommandLine<Options> {
  const options = { ...spec.options, help: { type: "boolean", short: "h" } } as const;
  const { tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === "option" && token.name === "help")) return { help: true };

  const values: Record<string, string | string[] | boolean | undefined> = {};
  for (const name of Object.keys(spec.options)) {
    const option = spec.options[name];
    values[name] = option?.type === "boolean" ? false : option?.multiple ? [] : undefined;
  }
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === "option-terminator") continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (option === undefined) throw new UsageError(`unknown option ${token.rawName}`, spec.command);
    if (option.type === "boolean") {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`, spec.command);
      values[token.name] = true;
      continue;
    }
    // Leniently parsed, `--port --json` would make "--json" the port: that is a missing value.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith("--"))) {
      throw new UsageError(`${token.rawName} needs a value`, spec.command);
    }
    const given = values[token.name];
    values[token.name] = Array.isArray(given) ? [...given, token.value] : token.value;
  }
  const allowed = spec.maxPositionals ?? 0;
  if (positionals.length > allowed) {
    throw new UsageError(`unexpected argument "${positionals[allowed]}"`, spec.command);
  }
  return { help: false, values: values as OptionValues<Options>, positionals };
}
