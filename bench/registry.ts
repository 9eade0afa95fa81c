import type { BenchResult } from './lib/report';
import { startupBench } from './startup';
import { logEngineBench } from './log-engine';
import { sqlRoundTripsBench } from './sql-roundtrips';
import { sqlExportBench } from './sql-export';
import { sqlBatchTextsBench } from './sql-batch-texts';
import { sqlExport1mBench } from './sql-export-1m';
import { keystrokeBench } from './keystroke';
import { keystrokeTimelineBench } from './keystroke-timeline';
import { followBench } from './follow';
import { memoryBench } from './memory';
import { backfillBench } from './backfill';
import { emulatorRateBench } from './emulator-rate';
import { logStoreBench } from './log-store';
import { logsSqlBench } from './logs-sql';
import { logsSqlFollowBench } from './logs-sql-follow';
import { logsSqlFirstQueryBench } from './logs-sql-first-query';
import { v1DayBench } from './v1-day';
import { shipBench } from './ship';
import { shipFollowBench } from './ship-follow';

export interface Bench {
  id: string;
  run(): Promise<BenchResult[]>;
}

/** Every benchmark; each lives in its own file in bench/. */
export const benches: Bench[] = [
  startupBench,
  logEngineBench,
  sqlRoundTripsBench,
  sqlBatchTextsBench,
  sqlExportBench,
  sqlExport1mBench,
  keystrokeBench,
  keystrokeTimelineBench,
  followBench,
  memoryBench,
  logStoreBench,
  logsSqlBench,
  logsSqlFirstQueryBench,
  logsSqlFollowBench,
  backfillBench,
  emulatorRateBench,
  v1DayBench,
  shipBench,
  shipFollowBench,
];
