/** An error that fails one request (or one batch step) while the HTTP answer stays 200. */
export class StmtError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
