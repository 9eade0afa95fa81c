/** The process's streams and environment, passed in so every entry point can be driven by tests. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** A user mistake on the command line: printed as a message with exit code 2. */
export class UsageError extends Error {}
