import { ApiError } from '../errors';

export const READ_ONLY_EXPLANATION =
  'this database token is read-only: SELECT and other reads work, but every write (INSERT, UPDATE, DELETE, CREATE, DROP, ALTER...) is refused. ' +
  'Use a full-access token to write (burrow db tokens create).';

/** A statement the server refused or that failed (SQLite error, parse error, bad arguments...). */
export class SqlError extends ApiError {
  /** True when the refusal is a read-only token meeting a write. */
  readonly readOnlyRefusal: boolean;
  readonly serverMessage: string;

  constructor(serverMessage: string, code: string | null, readOnlyToken: boolean) {
    const refused = code === 'BLOCKED' || (readOnlyToken && code === 'SQLITE_READONLY');
    super({
      kind: 'http',
      status: 200,
      code,
      message: `${code ? `${code}: ` : ''}${serverMessage}${refused ? ` (${READ_ONLY_EXPLANATION})` : ''}`,
    });
    this.name = 'SqlError';
    this.readOnlyRefusal = refused;
    this.serverMessage = serverMessage;
  }
}

/** Why the server's stream is gone. */
export interface StreamLoss {
  at: number;
  reason: string;
  /** A transaction was open: the server rolled it back. */
  rolledBack: boolean;
  /** When that transaction had started. */
  transactionSince: number | null;
}

/** The stream carrying an open transaction was lost: the server rolled the transaction back. */
export class StreamLostError extends ApiError {
  readonly loss: StreamLoss;
  constructor(loss: StreamLoss, prefix = '') {
    super({
      kind: 'http',
      status: null,
      code: 'STREAM_LOST',
      message: `${prefix}stream lost: the open transaction was rolled back (${loss.reason}); nothing since BEGIN was kept. The next statement runs on a new stream, outside any transaction.`,
    });
    this.name = 'StreamLostError';
    this.loss = loss;
  }
}
