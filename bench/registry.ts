import type { BenchResult } from './lib/report';
import { startupBench } from './startup';
import { logEngineBench } from './log-engine';
import { sqlRoundTripsBench } from './sql-roundtrips';
import { sqlExportBench } from './sql-export';
import { keystrokeBench } from './keystroke';
import { followBench } from './follow';
import { memoryBench } from './memory';
import { backfillBench } from './backfill';
import { emulatorRateBench } from './emulator-rate';

export interface Bench {
  id: string;
  run(): Promise<BenchResult[]>;
}

/** Every benchmark; each lives in its own file in bench/. */
export const benches: Bench[] = [startupBench, logEngineBench, sqlRoundTripsBench, sqlExportBench, keystrokeBench, followBench, memoryBench, backfillBench, emulatorRateBench];
