/** A command line that cannot be run as given: a bad flag, a missing value. Exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode = 2;
  /** The command whose `--help` explains the options, such as `payreq webhooks listen`. */
  readonly command: string;

  constructor(message: string, command: string) {
    super(message);
    this.command = command;
  }
}

/** A command that was run as given but could not do its work (a server unreachable, a refusal). Exit status 1. */
export class CommandError extends Error {
  override name = "CommandError";
  readonly exitCode = 1;
}
