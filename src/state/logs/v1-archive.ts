import type { Api } from '../../api/index';
import { compileFilter, type LogEntry, type LogFilter, type V1Progress } from '../../api/logs/index';
import { StoppableRead, type ReadOutcome } from './stoppable-read';
import type { LogsViewModel } from './view-model';
import { RecordBatch } from '../../log-engine/record-batch';

/** How a read of a day ended. */
export type V1Outcome = ReadOutcome;

/** What the store shows while a day is read and after. */
export interface V1ReadProgress extends V1Progress {
  /** Records of the day that pass the server filters (applied here); the store holds the newest of them. */
  matched: number;
}

/** Any server filter field set (they are applied here, record by record, as the v2 server would). */
function filtering(filter: LogFilter): boolean {
  return Object.entries(filter).some(
    ([k, v]) => k !== 'includeOriginShield' && v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
}

/**
 * A past day's v1 log file for the logs screen, read as a stream into the screen's columnar store
 * (oldest lines first, so the store keeps the newest when the day is bigger than it: capacity
 * and eviction as for live records). The server filters are applied to each piece as it comes;
 * changing them reads the day again. `stop` ends a read and keeps what was read.
 */
export class V1Archive extends StoppableRead {
  constructor(
    private readonly api: Api,
    private readonly model: LogsViewModel,
  ) {
    super();
  }

  /**
   * Reads the day into the model (which the caller emptied); `onPiece` after each piece is
   * stored. API errors are thrown, with what was read so far kept in the model.
   */
  async read(zoneId: number, date: string, filter: LogFilter, onPiece: (progress: V1ReadProgress, added: number) => void): Promise<V1Outcome> {
    const read = this.begin();
    const ctl = read.ctl;
    const ended = (): V1Outcome => this.ended(read);
    const test = filtering(filter) ? compileFilter(filter) : null;
    let matched = 0;
    try {
      await this.api.logs.v1Stream(zoneId, date, {
        order: 'asc',
        signal: ctl.signal,
        onPiece: (piece, progress) => {
          if (ctl.signal.aborted) return;
          let added: number;
          if (test) {
            const kept: LogEntry[] = [];
            const times: number[] = [];
            const records = piece.batch.entries();
            for (let i = 0; i < records.length; i++) {
              const e = records[i]!;
              if (test(e)) {
                kept.push(e);
                times.push(piece.times[i]!);
              }
            }
            added = kept.length ? this.model.load(kept, times) : 0;
            matched += kept.length;
          } else if (piece.batch instanceof RecordBatch) {
            // the piece's columns straight into the store, as following does
            added = this.model.buffer.insertBatch(piece.batch);
            matched += piece.batch.length;
          } else {
            added = this.model.load(piece.batch.entries(), Array.from(piece.times));
            matched += piece.batch.length;
          }
          onPiece({ ...progress, matched }, added);
        },
      });
      return ctl.signal.aborted ? ended() : 'done';
    } catch (error) {
      if (ctl.signal.aborted) return ended();
      throw error;
    } finally {
      this.finish(read);
    }
  }
}
