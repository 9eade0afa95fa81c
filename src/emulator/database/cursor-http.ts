import type { Ctx } from '../http-kit';
import type { HostedDatabase } from './catalog';
import type { Cond, EngineStmt } from './engine-protocol';
import { EngineFailure, type EngineSupervisor } from './engine-supervisor';
import { checkBatchConditions, parseBatchSteps } from './pipeline';
import type { Stream, StreamStore } from './streams';
import { ProtocolError } from './values';

/*
 * POST /v3/cursor: a batch whose results are streamed as NDJSON (sqld's shape: the baton line,
 * then step_begin/row/step_end/step_error/error entries), so a result of any size reaches the
 * client without the 10 MB limit of a pipeline answer and without being held in memory here.
 */

export interface CursorHttpDeps {
  engine: EngineSupervisor;
  streams: StreamStore;
  /** Auth, body and the baton's stream; answers and returns null when refused. */
  requestStream<T extends { baton: string | null }>(ctx: Ctx, db: HostedDatabase, parse: (text: string) => T): Promise<{ body: T; stream: Stream } | null>;
  connOf(stream: Stream): number;
  engineFailure(ctx: Ctx, error: EngineFailure): void;
  protocolFailure(ctx: Ctx, error: ProtocolError): void;
}

interface CursorBody {
  baton: string | null;
  batch: unknown;
}

function parseCursorBody(text: string): CursorBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProtocolError(`Cannot deserialize client message from JSON: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ProtocolError('Cannot deserialize client message from JSON: expected an object with "batch"');
  const o = json as Record<string, unknown>;
  if (o.baton !== undefined && o.baton !== null && typeof o.baton !== 'string')
    throw new ProtocolError('Cannot deserialize client message from JSON: baton: expected a string or null');
  if (o.batch === undefined) throw new ProtocolError('Cannot deserialize client message from JSON: missing field `batch`');
  return { baton: (o.baton as string | null | undefined) ?? null, batch: o.batch };
}

export async function serveCursor(ctx: Ctx, db: HostedDatabase, deps: CursorHttpDeps): Promise<void> {
  const found = await deps.requestStream(ctx, db, parseCursorBody);
  if (found === null) return;
  const { body, stream } = found;
  const { streams, engine } = deps;
  let steps: { condition: Cond | null; stmt: EngineStmt }[];
  let conn: number;
  try {
    steps = parseBatchSteps(body.batch, 'batch', stream.sqls);
    checkBatchConditions(steps, 3);
    conn = deps.connOf(stream);
  } catch (error) {
    streams.destroy(stream);
    if (error instanceof ProtocolError) return deps.protocolFailure(ctx, error);
    if (error instanceof EngineFailure) return deps.engineFailure(ctx, error);
    throw error;
  }
  const res = ctx.res;
  // sqld sends the JSON cursor as text/plain
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.write(`${JSON.stringify({ baton: streams.baton(stream), base_url: null })}\n`);
  const cursor = engine.cursor(conn, db.ref, stream.readOnly, steps, (text) => {
    if (res.write(text)) cursor.credit();
    else res.once('drain', () => cursor.credit());
  });
  // a reader that goes away stops the statement (the stream stays, as after a cancelled pipeline)
  const onClose = () => {
    if (!res.writableFinished) cursor.cancel();
  };
  res.once('close', onClose);
  try {
    stream.autocommit = (await cursor.done).autocommit;
  } catch (error) {
    if (!(error instanceof EngineFailure)) throw error;
    streams.destroy(stream);
    const code = error.reason === 'unavailable' ? 'ENGINE_UNAVAILABLE' : 'ENGINE_RESTARTED';
    res.write(
      `${JSON.stringify({ type: 'error', error: { message: `The database engine failed while running this cursor (${error.message}); this stream and its open transaction, if any, are gone`, code } })}\n`,
    );
  } finally {
    res.off('close', onClose);
    streams.end(stream);
    res.end();
  }
}
