import { normalizeFilter, type LogFilter } from '../../api/logs/index';
import type { Settings } from '../../config/settings';
import { openLogStore } from '../../log-ship/store';
import { readStoredPieces } from '../../log-ship/store-read';
import { StoppableRead, type ReadOutcome } from './stoppable-read';
import type { LogsViewModel } from './view-model';

/** How a read of a window from the store ended. */
export type StoreReadOutcome = ReadOutcome;

/** What the screen shows of a read from the store. */
export interface StoreReadProgress {
  /** Records read so far. */
  read: number;
  /** Records of the window (after the server filters), once ClickHouse counted them. */
  total: number | null;
}

/** Records per query: a piece shows as soon as it is read. */
const PIECE = 20_000;

/** The table `burrow ship` fills by default (the console reads that one). */
export const STORE_TABLE = 'cdn_logs';

/**
 * A past window read from the log store (burrow ship's ClickHouse) into the logs screen's
 * columnar store, oldest first in pieces (the newest `capacity` of the window only), with the
 * screen's server filters asked of ClickHouse. `stop` ends a read and keeps what was read.
 */
export class StoreWindow extends StoppableRead {
  constructor(
    private readonly settings: Settings,
    private readonly model: LogsViewModel,
    private readonly pieceSize = PIECE,
  ) {
    super();
  }

  /** A store is configured (BURROW_LOG_STORE or logStore: in the profile). */
  get configured(): boolean {
    return this.settings.logStore !== null;
  }

  /** Reads [from, to) of the zones into the model (which the caller emptied); errors are thrown, what was read kept. */
  async read(
    zones: readonly number[],
    filter: LogFilter,
    window: { from: number; to: number },
    max: number,
    onProgress: (p: StoreReadProgress, added: number) => void,
  ): Promise<StoreReadOutcome> {
    this.cancel();
    if (this.settings.logStore === null) throw new Error('no log store configured (BURROW_LOG_STORE or logStore: in the profile)');
    const read = this.begin();
    const ctl = read.ctl;
    const store = openLogStore(this.settings.logStore, this.settings.logStorePassword ?? '', STORE_TABLE);
    const progress: StoreReadProgress = { read: 0, total: null };
    try {
      await readStoredPieces(
        store,
        { zones, from: window.from, to: window.to, filter: normalizeFilter(filter) },
        max,
        this.pieceSize,
        (total) => {
          progress.total = total;
          onProgress(progress, 0);
        },
        (piece) => {
          if (ctl.signal.aborted) return;
          progress.read += piece.entries.length;
          onProgress(progress, this.model.load(piece.entries, piece.times));
        },
        ctl.signal,
      );
      return ctl.signal.aborted ? this.ended(read) : 'done';
    } catch (error) {
      if (ctl.signal.aborted) return this.ended(read);
      throw error;
    } finally {
      this.finish(read);
      await store.close();
    }
  }
}
