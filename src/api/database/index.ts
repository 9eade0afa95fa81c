/**
 * The database client: Hrana over HTTP on undici (not @libsql/client), the value codec, and the
 * statement completeness check and splitter a REPL needs. See README.md in this folder.
 */
export { DatabaseSession, type DatabaseSessionOptions, type SessionStatus, type RunOptions, type RunOutcome } from './session';
export type { StatementResult, DescribeInfo } from './protocol';
export { SqlError, StreamLostError, READ_ONLY_EXPLANATION, type StreamLoss } from './errors';
export { parseDatabaseUrl, tokenAccess, type DatabaseTarget } from './url';
export { isComplete } from './complete';
export { splitStatements, leadingTokens, type SqlStatement } from './split';
export { valueText, valueJson, formatReal, displayReal, blobHex, distinctKeys, type SqlValue, type SqlArg } from './values';
