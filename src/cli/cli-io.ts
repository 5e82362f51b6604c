/** Where a command writes and what it reads from its environment; the process's own by default. */
export interface TextSink {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: Readonly<Record<string, string | undefined>>;
}

export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

export function printLine(sink: TextSink, text: string): void {
  sink.write(`${text}\n`);
}
