/** What a command that listens on a port says when it cannot, and what to do instead. */
export interface ListenErrorContext {
  host: string;
  port: number;
  /** What failed to start, for other errors: "the server", "the listener". */
  what: string;
  /** How to pick another port with this command, said after "already in use: ". */
  portInUseHint: string;
}

/** Why listen() failed, in words, for a CommandError. */
export function describeListenError(error: NodeJS.ErrnoException, context: ListenErrorContext): string {
  const { host, port } = context;
  if (error.code === "EADDRINUSE") {
    return `port ${port} on ${host} is already in use: ${context.portInUseHint}`;
  }
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
    return `cannot listen on host ${host}: it is not an address of this machine (${error.code})`;
  }
  return `${context.what} could not start: ${error.message}`;
}
