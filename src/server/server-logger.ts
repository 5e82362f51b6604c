/** Where the server reports its own failures; request headers and bodies never go there. */
export interface ServerLogger {
  error(message: string, error?: unknown): void;
}
